/**
 * The panels laid over the table between decisions: Start (P1), the round summary with
 * Continue (P2), and game over with the result and a rematch challenge. Their timeouts are
 * the view's (`view.rules`, `start_deadline`, `continue_at`), never numbers of this file.
 * Each panel is a card whose body scrolls and whose foot (the decision, its countdown,
 * rematch, the way out) always stays on screen, a phone's included.
 * Countdowns are drawn from the server's instants (start_deadline / continue_at, epoch
 * seconds); when they reach zero the clock module's `tick` lets the server act.
 */
import { tileSvg } from "./board.js";
import { paymentText, reasonText } from "./feed.js";
import { secondsUntil } from "./clocks.js";
import { button, el } from "./dom.js";

const fmt = (text, values) => interpolate(text, values, true);


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
   * @param {HTMLElement} root      the overlay element
   * @param {{send: (a: object) => void, rematch: (answer: string) => void,
   *          computerAgain: HTMLFormElement|null, newSameDeviceUrl: string, lobbyUrl: string,
   *          gameUrl: (id: number) => string}} deps
   */
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.countdown = null; // {el, at, template}
    this.shown = null; // which panel and decision is up: focus moves only when it changes
    this.peek = false; // the card folded to its foot, to look at the final table
  }

  hide() {
    this.root.hidden = true;
    this.root.replaceChildren();
    this.countdown = null;
    this.shown = null;
    this.peek = false;
  }

  /** Per frame: refresh the countdown text. */
  tick(serverNow) {
    if (!this.countdown) return;
    const left = secondsUntil(this.countdown.at, serverNow);
    this.countdown.el.textContent = fmt(this.countdown.template, { s: left });
  }

  update(view, names) {
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    let primary;
    // Against the computer the player's Start was the choice to play it, and the computer
    // presses its own at once: the card asking both to press Start would only mislead.
    const computer = view.players.some((p) => p.bot);
    if (view.status === "waiting" && !computer) primary = this.showStart(view, names);
    else if (["finished", "aborted", "cancelled"].includes(view.status)) primary = this.showOver(view, names);
    else if (view.phase === "round_over") primary = this.showRound(view, names);
    else {
      this.hide();
      return;
    }
    // Focus goes where the next decision is when it appears, and stays on its control
    // across the re-renders that follow (a ready mark, a rematch offer).
    const key = `${view.status}:${view.round}:${view.phase}:${primary?.dataset.action ?? ""}`;
    const again = focused && this.root.querySelector(`[data-action="${focused}"]`);
    if (key !== this.shown) {
      this.shown = key;
      (primary || this.root.querySelector(".overlay__foot a, .overlay__foot button"))?.focus();
    } else if (again) {
      again.focus();
    }
  }

  frame(title, className) {
    this.root.hidden = false;
    this.root.replaceChildren();
    this.root.className = `overlay overlay--${className}${this.peek ? " overlay--peek" : ""}`;
    const card = el("section", "overlay__card");
    card.setAttribute("aria-labelledby", "overlay-title");
    const h = el("h2", "overlay__title", title);
    h.id = "overlay-title";
    const body = el("div", "overlay__body");
    const foot = el("div", "overlay__foot");
    card.append(h, body, foot);
    this.root.appendChild(card);
    return { body, foot };
  }

  readyList(view, names, key) {
    const list = el("ul", "ready-list");
    view.players.forEach((p, seat) => {
      const li = el("li", p[key] ? "ready-list__item ready-list__item--ready" : "ready-list__item");
      const ready = key === "continued" ? gettext("%(p)s is ready for the next round") : gettext("%(p)s is ready");
      li.textContent = fmt(p[key] ? ready : gettext("%(p)s: not yet"), { p: names[seat] });
      list.appendChild(li);
    });
    return list;
  }

  actionButton(text, action) {
    const b = button(text, action.do, () => this.deps.send(action), "button--primary button--big");
    b.setAttribute("aria-keyshortcuts", "Enter");
    return b;
  }

  countdownLine(foot, at, template) {
    const count = el("p", "overlay__countdown");
    foot.appendChild(count);
    this.countdown = { el: count, at, template };
  }

  /** A seat's name on a shared screen, where the one user plays both ("Start (Marta)"). */
  forSeat(text, view, names) {
    return view.same_device ? fmt(gettext("%(action)s (%(p)s)"), { action: text, p: names[view.seat] ?? "" }) : text;
  }

  showStart(view, names) {
    const { body, foot } = this.frame(gettext("Ready to play?"), "start");
    body.append(
      el("p", "", gettext("Both players press Start. The clocks start with the first decision.")),
      this.readyList(view, names, "started"),
    );
    const start = view.legal?.find((a) => a.do === "start");
    const button = start ? this.actionButton(this.forSeat(gettext("Start"), view, names), start) : null;
    if (button) foot.appendChild(button);
    this.countdownLine(foot, view.start_deadline, gettext("The game is aborted in %(s)s s unless both press Start."));
    return button;
  }

  roundBlock(body, view, names) {
    const last = view.last_round;
    if (!last) return;
    const hands = el("div", "summary-hands");
    // A hand's points count only in a block (R5.6): after a domino nothing is paid for
    // them (R5.5), so they are not added up.
    const counted = last.reason === "block";
    last.hands.forEach((hand, seat) => {
      let line = fmt(gettext("%(p)s went out"), { p: names[seat] });
      if (hand.length && counted) {
        line = fmt(gettext("%(p)s: %(n)s points in hand"), { p: names[seat], n: last.totals[seat] });
      } else if (hand.length) {
        line = fmt(gettext("%(p)s still held"), { p: names[seat] });
      }
      const who = el("p", "summary-hands__who", line);
      hands.append(who, tilesRow(hand));
    });
    body.appendChild(hands);
    const pays = el("ul", "summary-payments");
    if (!last.payments.length) pays.appendChild(el("li", "", gettext("No points changed hands this round.")));
    for (const p of groupPayments(last.payments)) {
      pays.appendChild(el("li", `payment payment--${p.why}`, paymentText(p, names)));
    }
    body.appendChild(pays);
  }

  balancesLine(view, names, template) {
    return el(
      "p",
      "summary-balances",
      fmt(template, { a: names[0], x: view.players[0].balance, b: names[1], y: view.players[1].balance }),
    );
  }

  /** "See the table": fold the card to its foot, so the final board shows; and back. */
  peekButton(foot) {
    const b = button(this.peek ? gettext("Back to the summary") : gettext("See the table"), "peek", () => {
      this.peek = !this.peek;
      this.root.classList.toggle("overlay--peek", this.peek);
      b.textContent = this.peek ? gettext("Back to the summary") : gettext("See the table");
      b.setAttribute("aria-expanded", String(!this.peek));
    }, "button--ghost");
    b.setAttribute("aria-expanded", String(!this.peek));
    foot.appendChild(b);
  }

  showRound(view, names) {
    const last = view.last_round;
    const title = last
      ? fmt(gettext("Round %(n)s over: %(reason)s"), { n: last.round, reason: reasonText(last.reason) })
      : gettext("Round over");
    const { body, foot } = this.frame(title, "round");
    this.roundBlock(body, view, names);
    body.append(
      this.balancesLine(view, names, gettext("Balances: %(a)s %(x)s – %(y)s %(b)s")),
      this.readyList(view, names, "continued"),
    );
    const go = view.legal?.find((a) => a.do === "continue");
    const button = go ? this.actionButton(this.forSeat(gettext("Continue"), view, names), go) : null;
    if (button) foot.appendChild(button);
    this.peekButton(foot);
    this.countdownLine(foot, view.continue_at, gettext("Next round in %(s)s s."));
    return button;
  }

  overText(view, names) {
    if (view.status === "aborted") return gettext("Not both players pressed Start in time: no result, no rating change.");
    if (view.status === "cancelled")
      return gettext(
        "A service fault kept the server from measuring time reliably, so the game is cancelled with no rating result (R7.10).",
      );
    return fmt(overReason(view.reason), { p: names[view.winner] ?? "", other: names[1 - view.winner] ?? "" });
  }

  showOver(view, names) {
    let title;
    const player = view.seat !== null && view.seat !== undefined && !view.same_device;
    if (view.status === "aborted") title = gettext("Game aborted");
    else if (view.status === "cancelled") title = gettext("Game cancelled");
    else if (view.winner === null || view.winner === undefined) title = gettext("Game over");
    else if (player) title = view.winner === view.seat ? gettext("You win!") : gettext("You lose");
    else title = fmt(gettext("%(p)s wins"), { p: names[view.winner] });
    const { body, foot } = this.frame(title, "over");
    body.appendChild(el("p", "overlay__reason", this.overText(view, names)));
    if (view.status === "finished") body.appendChild(this.balancesLine(view, names, gettext("Final balances: %(a)s %(x)s – %(y)s %(b)s")));
    const rating = el("p", "overlay__rating", this.deps.ratingLine?.() || "");
    rating.id = "rating-change";
    body.appendChild(rating);
    // What comes next (games/game/next.js): an arena's result and next game, the queue.
    const next = player ? this.deps.next?.renderOver(body, foot) : null;
    if (view.last_round && view.last_round.hands?.some((h) => h.length)) this.roundBlock(body, view, names);
    if (view.status === "finished") body.appendChild(this.reviewBlock());
    let primary = null;
    const opponent = player ? view.players[1 - view.seat] : null;
    if (next?.arena) {
      primary = next.primary; // the arena goes on: no rematch, and the way back is to it
    } else if (opponent?.bot && this.deps.computerAgain) {
      // A computer takes no offer: a new game against it starts at once.
      const form = this.deps.computerAgain.cloneNode(true);
      form.removeAttribute("id");
      form.hidden = false;
      form.querySelector("[name=strength]").value = opponent.bot;
      if (this.deps.next?.queue) {
        // Back in the queue: the next game against the computer keeps the place again.
        const keep = el("input");
        Object.assign(keep, { type: "hidden", name: "queue", value: "keep" });
        form.appendChild(keep);
      }
      foot.appendChild(form);
      primary = form.querySelector("button");
    } else if (player && ["finished", "aborted"].includes(view.status)) {
      primary = this.rematchBlock(foot, view, names);
    }
    primary ??= next?.primary ?? null;
    if (next?.after) foot.append(...next.after);
    if (view.same_device && this.deps.newSameDeviceUrl) {
      const a = el("a", "button button--primary", gettext("New game on this device"));
      a.href = this.deps.newSameDeviceUrl;
      foot.appendChild(a);
    }
    if (view.last_round) this.peekButton(foot);
    if (this.deps.lobbyUrl && !next?.arena) {
      const a = el("a", "button", gettext("Back to the lobby"));
      a.href = this.deps.lobbyUrl;
      a.dataset.action = "lobby";
      foot.appendChild(a);
    }
    this.countdown = null;
    return primary;
  }

  /** The game's review (games/review): its progress pushed live, then a link to it. */
  reviewBlock() {
    const box = el("div", "overlay__review");
    box.id = "review-progress";
    const review = this.deps.review?.();
    const link = el("a", "", gettext("See the game review"));
    link.href = review?.url || this.deps.reviewUrl || "";
    if (review?.status === "running") {
      const text = review.total
        ? fmt(gettext("Review: decision %(n)s of %(total)s"), { n: review.done, total: review.total })
        : gettext("Review: starting…");
      const label = el("p", "overlay__review-text", text);
      label.setAttribute("role", "status");
      const bar = document.createElement("progress");
      bar.max = review.total || 1;
      bar.value = review.done || 0;
      bar.setAttribute("aria-label", text);
      box.append(label, bar);
    } else if (review?.status === "failed") {
      box.append(el("p", "overlay__review-text", gettext("The review could not be made.")), link);
    } else if (review?.status === "done") {
      box.append(el("p", "overlay__review-text", gettext("The review is ready.")), link);
    } else if (link.href) {
      box.append(link);
    }
    return box;
  }

  /** The rematch as an offer (games.services.game_rematch): offer, accept, decline. */
  rematchBlock(foot, view, names) {
    const r = view.rematch || {};
    const other = names[1 - view.seat];
    const note = el("p", "overlay__rematch");
    note.setAttribute("role", "status");
    let primary = null;
    if (r.game) {
      // Both pages were taken there; a page opened later links to it.
      note.textContent = gettext("The rematch has started.");
      primary = el("a", "button button--primary", gettext("Go to the rematch"));
      primary.href = this.deps.gameUrl(r.game);
      primary.dataset.action = "rematch-go";
      foot.appendChild(primary);
    } else if (r.offered_by === view.seat) {
      note.textContent = fmt(gettext("Rematch offered: waiting for %(p)s."), { p: other });
      foot.appendChild(button(gettext("Withdraw the offer"), "rematch-decline", () => this.deps.rematch("decline")));
    } else if (r.offered_by === 1 - view.seat) {
      note.textContent = fmt(gettext("%(p)s offers a rematch, with the seats swapped."), { p: other });
      primary = button(gettext("Accept the rematch"), "rematch-offer", () => this.deps.rematch("offer"), "button--primary");
      foot.append(primary, button(gettext("Decline"), "rematch-decline", () => this.deps.rematch("decline")));
    } else {
      if (r.declined_by === 1 - view.seat) note.textContent = fmt(gettext("%(p)s declined the rematch."), { p: other });
      primary = button(gettext("Rematch"), "rematch-offer", () => this.deps.rematch("offer"), "button--primary");
      foot.appendChild(primary);
    }
    if (note.textContent) foot.prepend(note);
    return primary;
  }
}

/** How a game was won, as a sentence with the winner %(p)s and the loser %(other)s. */
export function overReason(reason) {
  switch (reason) {
    case "points":
      return gettext("%(p)s won: %(other)s's balance ran out.");
    case "time":
      return gettext("%(p)s won: %(other)s ran out of time.");
    case "resign":
      return gettext("%(p)s won: %(other)s resigned.");
    default:
      return gettext("%(p)s won.");
  }
}
