/**
 * Balances as counters (R1.1): each player's points as chips of 5 and as a number, and
 * every transfer animated from payer to payee with its reason ("scored 15", "block: 20",
 * "auction: 5"). The figures come from the view and the events only.
 */

const CHIP = 5; // R1.1: one counter is 5 points
const STACK = 10; // chips per stack (50 points), so 300 points is at most six stacks

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** Render `balance` as stacks of chips inside `el`. */
export function renderChips(el, balance) {
  const chips = Math.floor(Math.max(0, balance) / CHIP);
  const stacks = Math.ceil(chips / STACK);
  if (el.dataset.chips === String(chips)) return;
  el.dataset.chips = String(chips);
  el.replaceChildren(...el.querySelectorAll(".transfer-label")); // a label still showing stays
  for (let s = 0; s < stacks; s += 1) {
    const stack = document.createElement("span");
    stack.className = "chip-stack";
    const n = Math.min(STACK, chips - s * STACK);
    for (let c = 0; c < n; c += 1) {
      const chip = document.createElement("span");
      chip.className = "chip";
      stack.appendChild(chip);
    }
    el.appendChild(stack);
  }
}

export class BalanceView {
  /**
   * @param {(seat: number) => {box: HTMLElement, chips: HTMLElement, number: HTMLElement}|null} slots
   * @param {HTMLElement} layer  a fixed overlay for flying chips
   */
  constructor(slots, layer) {
    this.slots = slots;
    this.layer = layer;
    this.shown = [null, null];
    this.timer = null;
  }

  set(balances) {
    clearTimeout(this.timer);
    balances.forEach((b, seat) => {
      const slot = this.slots(seat);
      if (!slot) return;
      slot.number.textContent = String(b);
      renderChips(slot.chips, b);
      this.shown[seat] = b;
    });
  }

  /**
   * Show the new balances, animating the transfers the events describe. Without a
   * previous figure (first state, reconnection) the numbers are simply set.
   */
  update(balances, transfers) {
    if (!transfers.length || this.shown[0] === null || reducedMotion()) {
      this.set(balances);
      transfers.forEach((t) => this.flash(t));
      return;
    }
    transfers.forEach((t, i) => setTimeout(() => this.fly(t), i * 450));
    const total = 650 + transfers.length * 450;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.set(balances), total - 400);
  }

  /** A label by the payee, for reduced motion (and in addition to the flight). */
  flash(t) {
    const slot = this.slots(t.payee);
    if (!slot) return;
    // Over the payee's chips, a graphic, never over a word of the seat: the figure alone
    // (the log says why, in words).
    const label = document.createElement("span");
    label.className = "transfer-label";
    label.setAttribute("aria-hidden", "true");
    label.textContent = `+${t.points}`;
    label.title = t.label;
    label.dataset.why = t.why;
    slot.chips.appendChild(label);
    setTimeout(() => label.remove(), 2600);
    const payer = this.slots(t.payer);
    if (payer) {
      const minus = document.createElement("span");
      minus.className = "transfer-label transfer-label--minus";
      minus.setAttribute("aria-hidden", "true");
      minus.textContent = `−${t.points}`;
      payer.chips.appendChild(minus);
      setTimeout(() => minus.remove(), 2600);
    }
  }

  fly(t) {
    const from = this.slots(t.payer)?.chips;
    const to = this.slots(t.payee)?.chips;
    this.flash(t);
    if (!from || !to || !this.layer) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const chips = Math.min(6, Math.max(1, Math.round(t.points / CHIP)));
    for (let i = 0; i < chips; i += 1) {
      const chip = document.createElement("span");
      chip.className = "chip chip--flying";
      chip.style.left = `${a.left + a.width / 2}px`;
      chip.style.top = `${a.top + a.height / 2}px`;
      this.layer.appendChild(chip);
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const anim = chip.animate(
        [
          { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
          { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(1.1)`, opacity: 0.9 },
        ],
        { duration: 600, delay: i * 60, easing: "cubic-bezier(.3,.7,.4,1)", fill: "forwards" },
      );
      anim.onfinish = () => chip.remove();
    }
  }
}
