// The arena form's start, in the player's own time zone: the served value (UTC) becomes
// local, presets set it to "in 5 / 15 / 30 minutes", and the zone's offset from UTC goes
// with the form (tournaments.forms.ArenaForm turns the local start into UTC).
const form = document.querySelector(".arena-form");
const input = form && form.querySelector("input[type=datetime-local]");
const offset = form && form.querySelector("input[name=offset]");
const fill = (text, values) => interpolate(text, values, true);
const pad = (n) => String(n).padStart(2, "0");
const PRESETS = [5, 15, 30];

/** A Date as a datetime-local value, to the minute, in the browser's zone. */
function localValue(when) {
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T${pad(when.getHours())}:${pad(when.getMinutes())}`;
}

/** Now plus `minutes`, up to the next whole minute. */
function inMinutes(minutes) {
  return new Date(Math.ceil((Date.now() + minutes * 60_000) / 60_000) * 60_000);
}

function syncOffset() {
  const when = new Date(input.value); // a datetime-local value is read in the local zone
  offset.value = Number.isNaN(when.getTime()) ? "" : String(when.getTimezoneOffset());
}

if (input && offset) {
  if (form.dataset.bound !== "true") input.value = localValue(inMinutes(5));
  input.min = localValue(new Date());
  input.max = localValue(new Date(Date.now() + 24 * 3600_000));
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const help = document.getElementById(`${input.id}_helptext`);
  if (help) help.textContent = fill(gettext("In your time zone (%(zone)s)."), { zone });
  const presets = document.createElement("div");
  presets.className = "arena-form__presets";
  presets.setAttribute("role", "group");
  const label = document.createElement("span");
  label.id = "arena-form-presets";
  label.textContent = gettext("Start in:");
  presets.setAttribute("aria-labelledby", label.id);
  presets.append(label);
  for (const minutes of PRESETS) {
    const preset = document.createElement("button");
    preset.type = "button";
    preset.className = "button button--small button--ghost";
    preset.textContent = fill(gettext("%(n)s min"), { n: minutes });
    preset.addEventListener("click", () => {
      input.value = localValue(inMinutes(minutes));
      syncOffset();
    });
    presets.append(preset);
  }
  input.after(presets);
  input.addEventListener("input", syncOffset);
  form.addEventListener("submit", syncOffset);
  syncOffset();
}
