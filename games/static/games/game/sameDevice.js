/**
 * Same-device games (R7.7): one screen, two players. Between decisions a privacy screen
 * hides everything private; the next player presses "Show my tiles", which sends `reveal`
 * (their clock starts then). The server already sends no hand until the reveal; this
 * screen is what the players see meanwhile.
 */

const fmt = (text, values) => interpolate(text, values, true);

export class PrivacyScreen {
  /**
   * @param {HTMLElement} root   a full-screen overlay
   * @param {{send: (a: object) => void}} deps
   */
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.shownFor = null;
  }

  /** Shown exactly when the view says the seat to act has not revealed yet. */
  update(view, names) {
    const reveal = view.legal?.find((a) => a.do === "reveal");
    if (!view.same_device || !view.awaiting_reveal || view.status !== "playing") {
      this.root.hidden = true;
      this.shownFor = null;
      document.body.classList.remove("privacy-on");
      return;
    }
    const seat = view.to_act;
    const name = names[seat] ?? "";
    document.body.classList.add("privacy-on");
    if (this.shownFor === `${view.round}:${seat}:${!!reveal}` && !this.root.hidden) return;
    this.shownFor = `${view.round}:${seat}:${!!reveal}`;
    this.root.hidden = false;
    this.root.replaceChildren();
    const card = document.createElement("div");
    card.className = "privacy__card";
    const title = document.createElement("h2");
    title.className = "privacy__title";
    title.textContent = fmt(gettext("Pass the device to %(p)s"), { p: name });
    const note = document.createElement("p");
    note.textContent = gettext("The clock of the next player starts when they show their tiles.");
    card.append(title, note);
    if (reveal) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button button--primary button--big";
      button.dataset.action = "reveal";
      button.textContent = gettext("Show my tiles");
      button.addEventListener("click", () => this.deps.send({ do: "reveal" }));
      card.appendChild(button);
      requestAnimationFrame(() => button.focus());
    }
    this.root.appendChild(card);
  }
}
