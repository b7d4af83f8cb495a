/**
 * The auction for the lead (§6): who is jockey and rival, the standing bid, and the
 * controls. Only amounts present in `legal` are offered (so only what the player can
 * afford, R6.6), and their net cost is the server's `auction.net_cost` (R6.5): the page
 * computes no discount itself. It says who is who with "you", what winning brings and
 * what renouncing means, and the amount is set with a slider, ±5 or Max.
 */
import { button, el } from "./dom.js";

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
    const fresh = key !== this.key;
    if (fresh || !choices.amounts.includes(this.amount)) {
      this.amount = choices.amounts[0] ?? null;
      this.key = key;
    }
    const who = (seat) => (seat === view.seat && !view.same_device ? gettext("you") : names[seat]);

    const root = this.root;
    root.replaceChildren();
    const roles = el("p", "auction__roles");
    roles.append(
      el("span", "auction__role", fmt(gettext("Jockey (went out last round): %(p)s"), { p: who(auc.jockey) })),
      el("span", "auction__role", fmt(gettext("Rival: %(p)s"), { p: who(auc.rival) })),
    );
    // What winning brings and, for the rival's first decision, what renouncing means.
    let explain = gettext("The winner pays the bid and leads the next round with any tile.");
    if (choices.renounce) {
      explain += ` ${fmt(gettext("Renounce: %(p)s leads for free and nobody pays."), { p: names[auc.jockey] })}`;
    }
    root.append(
      roles,
      el("p", "auction__explain", explain),
      el(
        "p",
        "auction__standing",
        auc.bid === null || auc.bid === undefined
          ? this.noBidYet(view, auc, names)
          : fmt(gettext("Standing bid: %(n)s by %(p)s"), { n: auc.bid, p: who(auc.bidder) }),
      ),
    );

    if (!mine) {
      root.appendChild(el("p", "auction__wait muted", fmt(gettext("Waiting for %(p)s to decide…"), { p: names[view.to_act] ?? "" })));
      return;
    }

    const controls = el("div", "auction__controls");
    root.appendChild(controls);
    if (choices.renounce) {
      controls.appendChild(button(gettext("Renounce"), "renounce", () => this.deps.send({ do: "renounce" })));
    }
    if (choices.accept) {
      // accept_cost comes from the server: the bidder's price after any jockey discount.
      const label =
        auc.accept_cost !== undefined && auc.accept_cost !== null && auc.accept_cost !== auc.bid
          ? fmt(gettext("Accept %(n)s (they pay %(cost)s)"), { n: auc.bid, cost: auc.accept_cost })
          : fmt(gettext("Accept %(n)s"), { n: auc.bid });
      controls.appendChild(button(label, "accept", () => this.deps.send({ do: "accept" }), "button--primary"));
    }
    if (choices.amounts.length) this.amountControls(controls, view, choices, auc);
    if (fresh) (root.querySelector("[data-action=bid], [data-action=raise], [data-action=accept]"))?.focus();
  }

  /** Who bids first, said to whoever reads it: "you bid…" to the rival, else by name. */
  noBidYet(view, auc, names) {
    const n = view.rules.min_bid;
    if (auc.rival === view.seat && !view.same_device) {
      return fmt(gettext("No bid yet: you bid at least %(n)s or renounce"), { n });
    }
    return fmt(gettext("No bid yet: %(p)s bids at least %(n)s or renounces"), { n, p: names[auc.rival] });
  }

  /** Slider, ±5 and Max over the legal amounts only, and the bid button with its cost. */
  amountControls(controls, view, choices, auc) {
    const amounts = choices.amounts;
    const picker = el("div", "auction__picker");
    const slider = document.createElement("input");
    slider.type = "range";
    slider.className = "auction__slider";
    slider.min = String(amounts[0]);
    slider.max = String(amounts[amounts.length - 1]);
    slider.step = "5";
    slider.value = String(this.amount);
    slider.setAttribute("aria-label", gettext("Amount"));
    slider.disabled = amounts.length < 2;
    const amount = el("output", "auction__amount", String(this.amount));
    amount.setAttribute("aria-live", "polite");
    const down = button("−5", "bid-down", () => this.step(-1, choices));
    down.setAttribute("aria-label", gettext("Lower the amount by 5"));
    const up = button("+5", "bid-up", () => this.step(+1, choices));
    up.setAttribute("aria-label", gettext("Raise the amount by 5"));
    const max = button(gettext("Max"), "bid-max", () => this.set(amounts[amounts.length - 1], choices));
    max.title = gettext("The most you can bid now");
    picker.append(down, slider, up, amount, max);
    controls.appendChild(picker);
    const verb = choices.kind === "raise" ? gettext("Raise to %(n)s") : gettext("Bid %(n)s");
    const go = button("", choices.kind, () => this.deps.send({ do: choices.kind, amount: this.amount }), "button--primary");
    controls.appendChild(go);
    const note = el("p", "auction__cost");
    this.root.appendChild(note);
    slider.addEventListener("input", () => {
      // Snap to the nearest legal amount: the slider's steps are only a way to get there.
      const wanted = Number(slider.value);
      const near = amounts.reduce((a, b) => (Math.abs(b - wanted) < Math.abs(a - wanted) ? b : a));
      this.set(near, choices);
    });
    this.refresh = () => {
      const idx = amounts.indexOf(this.amount);
      slider.value = String(this.amount);
      amount.textContent = String(this.amount);
      down.disabled = idx <= 0;
      up.disabled = idx >= amounts.length - 1;
      max.disabled = up.disabled;
      go.textContent = fmt(verb, { n: this.amount });
      const cost = auc.net_cost?.[String(this.amount)];
      // The server says which amounts cost the whole balance: accepted, they lose the game.
      const ruinous = Boolean(auc.loses_if_accepted?.includes(this.amount));
      note.dataset.cost = cost ?? "";
      note.classList.toggle("auction__cost--warn", ruinous);
      note.textContent =
        cost === undefined || cost === null
          ? ""
          : ruinous
          ? fmt(gettext("If accepted it costs you all %(cost)s of your balance, and you lose the game."), { cost })
          : cost < this.amount
          ? fmt(gettext("If accepted it costs you %(cost)s (jockey discount: %(d)s off)"), { cost, d: this.amount - cost })
          : fmt(gettext("If accepted it costs you %(cost)s"), { cost });
    };
    this.refresh();
  }

  set(value, choices) {
    if (!choices.amounts.includes(value)) return;
    this.amount = value;
    this.refresh?.();
  }

  step(delta, choices) {
    const idx = choices.amounts.indexOf(this.amount);
    this.set(choices.amounts[Math.min(choices.amounts.length - 1, Math.max(0, idx + delta))], choices);
  }
}
