/**
 * The replay's "What would the computer play?": at a player's decision of a finished game,
 * asks the server what the hard computer would have done there (from the view that player
 * had) and says it. The server computes and caches the answer; this script only asks and
 * shows it. It follows the replay's current step (replay.js's "replay:step" event).
 */

const root = document.getElementById("replay");
const box = document.querySelector("[data-computer-suggestion]");
const steps = JSON.parse(document.getElementById("replay-steps")?.textContent || "[]");

function sayAnswer(out, data) {
  out.textContent = data.same
    ? gettext("The computer would also have played this.")
    : data.suggestion_text; // a whole sentence, in the page's language (the server's)
}

/** The endpoint for step `index`: the template's address with its placeholder 0 replaced. */
function urlFor(index) {
  return box.dataset.url.replace(/\/0\/computer\/$/, `/${index}/computer/`);
}

function follow(index) {
  const out = box.querySelector("output");
  box.dataset.step = String(index);
  box.hidden = !steps[index]?.decision;
  out.hidden = true;
  out.textContent = "";
}

async function ask(button) {
  const out = box.querySelector("output");
  const index = box.dataset.step;
  out.hidden = false;
  out.textContent = gettext("Thinking…");
  button.disabled = true;
  try {
    const response = await fetch(urlFor(index), { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (box.dataset.step !== index) return; // the replay moved on meanwhile
    if (response.ok) sayAnswer(out, data);
    else out.textContent = data.message || gettext("The computer could not answer. Try again.");
  } catch {
    out.textContent = gettext("The computer could not answer. Try again.");
  } finally {
    button.disabled = false;
  }
}

if (root && box) {
  const button = box.querySelector("[data-action=suggest]");
  button.addEventListener("click", () => ask(button));
  root.addEventListener("replay:step", (event) => follow(event.detail.index));
  // replay.js, loaded first, has already shown its first step.
  follow(Number(root.dataset.step ?? root.dataset.start) || 0);
}
