/**
 * The panels laid over the table between decisions: Start (P1), the round summary with
 * Continue (P2), and game over with the result and a rematch challenge. Their timeouts are
 * the view's (`view.rules`, `start_deadline`, `continue_at`), never numbers of this file.
 * Countdowns are drawn from the server's instants (start_deadline / continue_at, epoch
 * seconds); when they reach zero the clock module's `tick` lets the server act.
 */
import { tileSvg } from "./board.js";
import { paymentText, reasonText } from "./feed.js";
import { secondsUntil } from "./clocks.js";

const fmt = (text, values) => interpolate(text, values, true);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A row of small face-up tiles. */
function tilesRow(tiles) {
  const row = el("div", "tiles-row");
  for (const t of tiles || []) {
    const wrap = el("span", "tiles-row__tile");
    wrap.appendChild(tileSvg(t, { vertical: false, size: 17 }));
    wrap.setAttribute("aria-label", t);
    wrap.setAttribute("role", "img");
    row.appendChild(wrap);
  }
  return row;
}

/**
 * A round's payments summed per (payer, payee, why), in order of first appearance:
 * six scores of 10 read better as one line than six. Only the server's figures are added.
 */
export function groupPayments(payments) {
  const groups = new Map();
  for (const p of payments || []) {
    const key = `${p.payer}>${p.payee}:${p.why}`;
    const g = groups.get(key);
    if (g) g.points += p.points;
    else groups.set(key, { ...p });
  }
  return [...groups.values()];
}

export class SummaryView {
  /**
   * @param {HTMLElement} root      the overlay element (inside the table)
   * @param {{send: (a: object) => void, rematch: HTMLFormElement|null, computerAgain: HTMLFormElement|null, newSameDevice: HTMLFormElement|null}} deps
   */
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.countdown = null; // {el, at, template}
    this.key = null;
  }

  hide() {
    this.root.hidden = true;
    this.root.replaceChildren();
    this.countdown = null;
    this.key = null;
  }

  /** Per frame: refresh the countdown text. */
  tick(serverNow) {
    if (!this.countdown) return;
    const left = secondsUntil(this.countdown.at, serverNow);
    this.countdown.el.textContent = fmt(this.countdown.template, { s: left });
  }

  update(view, names) {
    if (view.status === "waiting") this.showStart(view, names);
    else if (["finished", "aborted", "cancelled"].includes(view.status)) this.showOver(view, names);
    else if (view.phase === "round_over") this.showRound(view, names);
    else this.hide();
  }

  frame(title, className) {
    this.root.hidden = false;
    this.root.replaceChildren();
    this.root.className = `overlay overlay--${className}`;
    const card = el("section", "overlay__card");
    card.setAttribute("aria-labelledby", "overlay-title");
    const h = el("h2", "overlay__title", title);
    h.id = "overlay-title";
    card.appendChild(h);
    this.root.appendChild(card);
    return card;
  }

  readyList(view, names, key) {
    const list = el("ul", "ready-list");
    view.players.forEach((p, seat) => {
      const li = el("li", p[key] ? "ready-list__item ready-list__item--ready" : "ready-list__item");
      li.textContent = p[key]
        ? fmt(gettext("%(p)s is ready"), { p: names[seat] })
        : fmt(gettext("%(p)s: not yet"), { p: names[seat] });
      list.appendChild(li);
    });
    return list;
  }

  actionButton(text, action) {
    const b = el("button", "button button--primary button--big", text);
    b.type = "button";
    b.dataset.action = action.do;
    b.addEventListener("click", () => this.deps.send(action));
    return b;
  }

  showStart(view, names) {
    const card = this.frame(gettext("Ready to play?"), "start");
    card.appendChild(
      el("p", "", gettext("Both players press Start. The clocks start with the first decision.")),
    );
    card.appendChild(this.readyList(view, names, "started"));
    const start = view.legal?.find((a) => a.do === "start");
    if (start) {
      const label = view.same_device
        ? fmt(gettext("Start (%(p)s)"), { p: names[view.seat] ?? "" })
        : gettext("Start");
      card.appendChild(this.actionButton(label, start));
    }
    const count = el("p", "overlay__countdown");
    card.appendChild(count);
    this.countdown = {
      el: count,
      at: view.start_deadline,
      template: gettext("The game is aborted in %(s)s s unless both press Start."),
    };
  }

  roundBlock(card, view, names) {
    const last = view.last_round;
    if (!last) return;
    const hands = el("div", "summary-hands");
    last.hands.forEach((hand, seat) => {
      const row = el("div", "summary-hands__row");
      const who = el("p", "summary-hands__who");
      who.textContent = fmt(gettext("%(p)s: %(n)s in hand"), { p: names[seat], n: last.totals[seat] });
      row.append(who, tilesRow(hand));
      hands.appendChild(row);
    });
    card.appendChild(hands);
    const pays = el("ul", "summary-payments");
    if (!last.payments.length) pays.appendChild(el("li", "", gettext("No points changed hands.")));
    for (const p of groupPayments(last.payments)) {
      pays.appendChild(el("li", `payment payment--${p.why}`, paymentText(p, names)));
    }
    card.appendChild(pays);
  }

  showRound(view, names) {
    const last = view.last_round;
    const title = last
      ? fmt(gettext("Round %(n)s over: %(reason)s"), { n: last.round, reason: reasonText(last.reason) })
      : gettext("Round over");
    const card = this.frame(title, "round");
    this.roundBlock(card, view, names);
    const balances = el("p", "summary-balances");
    balances.textContent = fmt(gettext("Balances: %(a)s %(x)s – %(y)s %(b)s"), {
      a: names[0],
      x: view.players[0].balance,
      y: view.players[1].balance,
      b: names[1],
    });
    card.appendChild(balances);
    card.appendChild(this.readyList(view, names, "continued"));
    const go = view.legal?.find((a) => a.do === "continue");
    if (go) {
      const label = view.same_device
        ? fmt(gettext("Continue (%(p)s)"), { p: names[view.seat] ?? "" })
        : gettext("Continue");
      card.appendChild(this.actionButton(label, go));
    }
    const count = el("p", "overlay__countdown");
    card.appendChild(count);
    this.countdown = { el: count, at: view.continue_at, template: gettext("Next round in %(s)s s.") };
  }

  showOver(view, names) {
    let title;
    if (view.status === "aborted") title = gettext("Game aborted");
    else if (view.status === "cancelled") title = gettext("Game cancelled");
    else if (view.winner === null || view.winner === undefined) title = gettext("Game over");
    else if (view.seat !== null && view.seat !== undefined && !view.same_device)
      title = view.winner === view.seat ? gettext("You win!") : gettext("You lose");
    else title = fmt(gettext("%(p)s wins"), { p: names[view.winner] });
    const card = this.frame(title, "over");
    const why = el("p", "overlay__reason");
    why.textContent =
      view.status === "aborted"
        ? gettext("Not both players pressed Start in time: no result, no rating change.")
        : view.status === "cancelled"
        ? gettext(
            "A service fault kept the server from measuring time reliably, so the game is cancelled with no rating result (R7.10).",
          )
        : fmt(gettext("%(winner)s won by %(reason)s. Final balances: %(a)s – %(b)s."), {
            winner: names[view.winner] ?? "",
            reason: reasonText(view.reason),
            a: view.players[0].balance,
            b: view.players[1].balance,
          });
    card.appendChild(why);
    if (view.last_round && view.last_round.hands?.some((h) => h.length)) this.roundBlock(card, view, names);
    const actions = el("div", "overlay__actions");
    const player = view.seat !== null && view.seat !== undefined;
    const opponent = player ? view.players[1 - view.seat] : null;
    if (opponent?.bot && this.deps.computerAgain) {
      // A computer takes no challenge: a new game against it starts at once.
      const form = this.deps.computerAgain.cloneNode(true);
      form.removeAttribute("id");
      form.hidden = false;
      form.querySelector("[name=strength]").value = opponent.bot;
      actions.appendChild(form);
    } else if (player && !view.same_device && this.deps.rematch) {
      const form = this.deps.rematch.cloneNode(true);
      form.removeAttribute("id");
      form.hidden = false;
      form.querySelector("[name=opponent]").value = opponent?.username ?? names[1 - view.seat];
      actions.appendChild(form);
    }
    if (view.same_device && this.deps.newSameDevice) {
      const form = this.deps.newSameDevice.cloneNode(true);
      form.removeAttribute("id");
      form.hidden = false;
      actions.appendChild(form);
    }
    if (this.deps.lobbyUrl) {
      const a = el("a", "button", gettext("Back to the lobby"));
      a.href = this.deps.lobbyUrl;
      actions.appendChild(a);
    }
    card.appendChild(actions);
    this.countdown = null;
  }
}
