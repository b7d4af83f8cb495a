/** The small element builders the game page's panels share. */

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A button that names its action (data-action), for the page and its tests alike. */
export function button(text, action, onClick, extra = "") {
  const b = el("button", `button ${extra}`.trim(), text);
  b.type = "button";
  b.dataset.action = action;
  b.addEventListener("click", onClick);
  return b;
}
