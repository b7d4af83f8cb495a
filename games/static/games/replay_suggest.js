/**
 * The replay's "What would the computer play?": asks the server what the hard computer
 * would have done at this step's decision (from the view that player had) and says it.
 * The server computes and caches it; this script only asks and shows the answer.
 */
const fmt = (text, values) => interpolate(text, values, true);

function sayAnswer(out, data) {
  out.textContent = data.same
    ? gettext("The computer would also have played this.")
    : fmt(gettext("The computer would have: %(action)s"), { action: data.suggestion_text });
}

async function ask(box, out, button) {
  out.hidden = false;
  out.textContent = gettext("Thinking…");
  button.disabled = true;
  try {
    const response = await fetch(box.dataset.url, { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (response.ok) sayAnswer(out, data);
    else out.textContent = data.message || gettext("The computer could not answer. Try again.");
  } catch {
    out.textContent = gettext("The computer could not answer. Try again.");
  } finally {
    button.disabled = false;
  }
}

for (const box of document.querySelectorAll("[data-computer-suggestion]")) {
  const button = box.querySelector("[data-action=suggest]");
  const out = box.querySelector("output");
  if (button && out) button.addEventListener("click", () => ask(box, out, button));
}
