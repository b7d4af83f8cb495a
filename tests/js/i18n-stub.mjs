// The JavaScript catalogue (static/jsi18n/<language>/) defines these globals in the page; the
// unit tests use the same semantics with no translation.
globalThis.gettext = (s) => s;
globalThis.ngettext = (s, p, n) => (n === 1 ? s : p);
globalThis.interpolate = (fmt, obj, named) =>
  named ? fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)])) : fmt.replace(/%s/g, () => String(obj.shift()));
