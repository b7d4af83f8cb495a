/**
 * The auction for the lead (§6): who is jockey and rival, the standing bid, and the
 * controls. Only amounts present in `legal` are offered (so only what the player can
 * afford, R6.6), and their net cost is the server's `auction.net_cost` (R6.5): the page
 * computes no discount itself.
 */

const fmt = (text, values) => interpolate(text, values, true);

/** The auction choices of the viewer, from `legal`. */
export function auctionChoices(legal) {
  const choices = { renounce: false, accept: false, kind: null, amounts: [] };
  for (const a of legal || []) {
    if (a.do === "renounce") choices.renounce = true;
    else if (a.do === "accept") choices.accept = true;
    else if (a.do === "bid" || a.do === "raise") {
      choices.kind = a.do;
      choices.amounts.push(a.amount);
    }
  }
  choices.amounts.sort((x, y) => x - y);
  return choices;
}

export class AuctionView {
  /**
   * @param {HTMLElement} root
   * @param {{send: (action: object) => void}} deps
   */
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.amount = null;
    this.key = null;
  }

  hide() {
    this.root.hidden = true;
    this.key = null;
  }

  /**
   * @param {object} view   the game view (phase "auction")
   * @param {string[]} names
   */
  update(view, names) {
    const auc = view.auction;
    if (!auc || view.phase !== "auction") {
      this.hide();
      return;
    }
    this.root.hidden = false;
    const choices = auctionChoices(view.legal);
    const mine = choices.renounce || choices.accept || choices.amounts.length > 0;
    // Keep the chosen amount across states of the same decision, else start at the minimum.
    const key = `${view.round}:${auc.history.length}:${view.to_act}`;
    if (key !== this.key || !choices.amounts.includes(this.amount)) {
      this.amount = choices.amounts[0] ?? null;
      this.key = key;
    }

    const root = this.root;
    root.replaceChildren();
    const roles = document.createElement("p");
    roles.className = "auction__roles";
    roles.innerHTML = "";
    const jockey = document.createElement("span");
    jockey.className = "auction__role";
    jockey.textContent = fmt(gettext("Jockey: %(p)s"), { p: names[auc.jockey] });
    const rival = document.createElement("span");
    rival.className = "auction__role";
    rival.textContent = fmt(gettext("Rival: %(p)s"), { p: names[auc.rival] });
    roles.append(jockey, rival);
    root.appendChild(roles);

    const standing = document.createElement("p");
    standing.className = "auction__standing";
    standing.textContent =
      auc.bid === null || auc.bid === undefined
        ? fmt(gettext("No bid yet: the rival bids at least %(n)s or renounces"), { n: view.rules.min_bid })
        : fmt(gettext("Standing bid: %(n)s by %(p)s"), { n: auc.bid, p: names[auc.bidder] });
    root.appendChild(standing);

    if (!mine) {
      const wait = document.createElement("p");
      wait.className = "auction__wait muted";
      wait.textContent = fmt(gettext("Waiting for %(p)s to decide…"), { p: names[view.to_act] ?? "" });
      root.appendChild(wait);
      return;
    }

    const controls = document.createElement("div");
    controls.className = "auction__controls";
    root.appendChild(controls);

    if (choices.renounce) {
      controls.appendChild(this.button(gettext("Renounce"), "renounce", () => this.deps.send({ do: "renounce" })));
    }
    if (choices.accept) {
      // accept_cost comes from the server: the bidder's price after any jockey discount.
      const label =
        auc.accept_cost !== undefined && auc.accept_cost !== null && auc.accept_cost !== auc.bid
          ? fmt(gettext("Accept %(n)s (they pay %(cost)s)"), { n: auc.bid, cost: auc.accept_cost })
          : fmt(gettext("Accept %(n)s"), { n: auc.bid });
      controls.appendChild(this.button(label, "accept", () => this.deps.send({ do: "accept" }), "button--primary"));
    }
    if (choices.amounts.length) {
      const stepper = document.createElement("div");
      stepper.className = "auction__stepper";
      const idx = choices.amounts.indexOf(this.amount);
      const down = this.button("−5", "bid-down", () => this.step(view, names, choices, -1));
      down.setAttribute("aria-label", gettext("Lower the amount by 5"));
      down.disabled = idx <= 0;
      const up = this.button("+5", "bid-up", () => this.step(view, names, choices, +1));
      up.setAttribute("aria-label", gettext("Raise the amount by 5"));
      up.disabled = idx >= choices.amounts.length - 1;
      const amount = document.createElement("output");
      amount.className = "auction__amount";
      amount.textContent = String(this.amount);
      amount.setAttribute("aria-live", "polite");
      stepper.append(down, amount, up);
      controls.appendChild(stepper);

      const cost = auc.net_cost?.[String(this.amount)];
      const verb = choices.kind === "raise" ? gettext("Raise to %(n)s") : gettext("Bid %(n)s");
      const go = this.button(
        fmt(verb, { n: this.amount }),
        choices.kind,
        () => this.deps.send({ do: choices.kind, amount: this.amount }),
        "button--primary",
      );
      controls.appendChild(go);
      const note = document.createElement("p");
      note.className = "auction__cost";
      if (cost !== undefined && cost !== null) {
        note.textContent =
          cost < this.amount
            ? fmt(gettext("If accepted it costs you %(cost)s (jockey discount)"), { cost })
            : fmt(gettext("If accepted it costs you %(cost)s"), { cost });
      }
      note.dataset.cost = cost ?? "";
      root.appendChild(note);
    }
  }

  step(view, names, choices, delta) {
    const idx = choices.amounts.indexOf(this.amount);
    const next = choices.amounts[Math.min(choices.amounts.length - 1, Math.max(0, idx + delta))];
    if (next !== undefined) this.amount = next;
    this.update(view, names);
    this.root.querySelector(`[data-action="${delta > 0 ? "bid-up" : "bid-down"}"]`)?.focus();
  }

  button(text, action, onClick, extra = "") {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `button ${extra}`.trim();
    b.textContent = text;
    b.dataset.action = action;
    b.addEventListener("click", onClick);
    return b;
  }
}
