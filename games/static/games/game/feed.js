/**
 * The event feed: one readable sentence per server event, and the balance transfers that
 * events imply (for the chip animation). Pure functions; `gettext`/`interpolate` are the
 * globals of the JavaScript catalogue the page loads first (static/jsi18n/).
 */

const fmt = (text, values) => interpolate(text, values, true);

/** "6-4" -> "[6|4]" */
const tileText = (tile) => (tile ? `[${String(tile).replace("-", "|")}]` : "");

/** Translated name of an end, for sentences ("on the left"). */
export function endPhrase(end) {
  switch (end) {
    case "left":
      return gettext("on the left");
    case "right":
      return gettext("on the right");
    case "up":
      return gettext("on the top arm");
    case "down":
      return gettext("on the bottom arm");
    default:
      return "";
  }
}

/** Short name of an end, for the targets' labels. */
export function endName(end) {
  switch (end) {
    case "left":
      return gettext("Left");
    case "right":
      return gettext("Right");
    case "up":
      return gettext("Top");
    case "down":
      return gettext("Bottom");
    default:
      return end;
  }
}

export function reasonText(reason) {
  switch (reason) {
    case "points":
      return gettext("balance ran out");
    case "time":
      return gettext("time ran out");
    case "resign":
      return gettext("resignation");
    case "abort":
      return gettext("not started in time");
    case "domino":
      return gettext("domino");
    case "block":
      return gettext("block");
    default:
      return reason || "";
  }
}

/**
 * One sentence for an event, or null for events not worth a line.
 * @param {object} ev        a server event
 * @param {string[]} names   usernames by seat
 */
export function describe(ev, names) {
  const who = (seat) => names?.[seat] ?? fmt(gettext("Player %(n)s"), { n: Number(seat) + 1 });
  const p = who(ev.player);
  switch (ev.type) {
    case "start":
      return fmt(gettext("%(p)s is ready"), { p });
    case "deal":
      return fmt(gettext("Round %(n)s: tiles dealt"), { n: ev.round });
    case "lead":
      return ev.auto
        ? fmt(gettext("%(p)s leads by rank with %(tile)s"), { p, tile: tileText(ev.tile) })
        : fmt(gettext("%(p)s leads with %(tile)s"), { p, tile: tileText(ev.tile) });
    case "play":
      return fmt(gettext("%(p)s played %(tile)s %(end)s"), {
        p,
        tile: tileText(ev.tile),
        end: endPhrase(ev.end),
      });
    case "draw":
      return ev.tile
        ? fmt(gettext("%(p)s drew %(tile)s"), { p, tile: tileText(ev.tile) })
        : fmt(gettext("%(p)s drew a tile"), { p });
    case "pass":
      return fmt(gettext("%(p)s cannot play and passes"), { p });
    case "score":
      return ev.points === ev.count
        ? fmt(gettext("Count %(count)s: %(p)s scores %(points)s"), { p, count: ev.count, points: ev.points })
        : fmt(gettext("Count %(count)s: %(p)s scores %(points)s (all that was left)"), {
            p,
            count: ev.count,
            points: ev.points,
          });
    case "domino":
      return fmt(gettext("Domino! %(p)s went out and will be the jockey"), { p });
    case "block":
      if (ev.player === null || ev.player === undefined) {
        return fmt(gettext("Block: equal hands (%(a)s–%(b)s), nothing paid"), {
          a: ev.totals?.[0],
          b: ev.totals?.[1],
        });
      }
      return fmt(gettext("Block: hands %(a)s–%(b)s, %(p)s receives %(points)s"), {
        a: ev.totals?.[0],
        b: ev.totals?.[1],
        p,
        points: ev.points,
      });
    case "renounce":
      return ev.auto
        ? fmt(gettext("%(p)s cannot bid and renounces"), { p })
        : fmt(gettext("%(p)s renounces the lead"), { p });
    case "bid":
      return fmt(gettext("%(p)s bids %(amount)s"), { p, amount: ev.amount });
    case "raise":
      return fmt(gettext("%(p)s raises to %(amount)s"), { p, amount: ev.amount });
    case "accept":
      return fmt(gettext("%(p)s accepts: %(payer)s pays %(amount)s and leads"), {
        p,
        payer: who(ev.payer),
        amount: ev.amount,
      });
    case "round_over":
      return fmt(gettext("Round %(n)s over (%(reason)s)"), { n: ev.round, reason: reasonText(ev.reason) });
    case "flag":
      return fmt(gettext("%(p)s ran out of time"), { p });
    case "resign":
      return fmt(gettext("%(p)s resigned"), { p });
    case "continue":
      return fmt(gettext("%(p)s is ready for the next round"), { p });
    case "reveal":
      return fmt(gettext("%(p)s took the device"), { p });
    case "abort":
      return gettext("The game was aborted: not started in time");
    case "void":
      return gettext("The game was cancelled: a service fault, no result (R7.10)");
    case "game_over":
      if (ev.winner === null || ev.winner === undefined) return gettext("Game over");
      return fmt(gettext("%(p)s wins (%(reason)s)"), { p: who(ev.winner), reason: reasonText(ev.reason) });
    default:
      return null;
  }
}

/**
 * The sentences for a batch of events, newest last. A placement followed by its score is
 * one line ("ana played [6|4] on the right: 15 points"), as a player would say it.
 */
export function sentences(events, names) {
  const out = [];
  const list = events || [];
  for (let i = 0; i < list.length; i += 1) {
    const ev = list[i];
    const next = list[i + 1];
    const placement = ev.type === "play" || ev.type === "lead";
    if (placement && next && next.type === "score" && next.player === ev.player && next.points > 0) {
      out.push({ type: ev.type, text: `${describe(ev, names)}: ${fmt(ngettext("%(n)s point", "%(n)s points", next.points), { n: next.points })}` });
      i += 1;
      continue;
    }
    const text = describe(ev, names);
    if (text) out.push({ type: ev.type, text });
  }
  return out;
}

/**
 * The point transfers that events record, in order: who paid whom, how much, and why.
 * Only the server's figures are used (points after the cap, the net auction cost).
 * @returns {{payer: number, payee: number, points: number, why: string, label: string}[]}
 */
export function transfersOf(events) {
  const out = [];
  for (const ev of events || []) {
    if (ev.type === "score" && ev.points > 0) {
      out.push({
        payer: 1 - ev.player,
        payee: ev.player,
        points: ev.points,
        why: "score",
        label: fmt(gettext("scored %(n)s"), { n: ev.points }),
      });
    } else if (ev.type === "block" && ev.player !== null && ev.player !== undefined && ev.points > 0) {
      out.push({
        payer: 1 - ev.player,
        payee: ev.player,
        points: ev.points,
        why: "block",
        label: fmt(gettext("block: %(n)s"), { n: ev.points }),
      });
    } else if (ev.type === "accept" && ev.amount > 0) {
      out.push({
        payer: ev.payer,
        payee: 1 - ev.payer,
        points: ev.amount,
        why: "auction",
        label: fmt(gettext("auction: %(n)s"), { n: ev.amount }),
      });
    }
  }
  return out;
}

/** A payment of `last_round.payments` as a sentence for the round summary. */
export function paymentText(payment, names) {
  const payer = names?.[payment.payer] ?? payment.payer;
  const payee = names?.[payment.payee] ?? payment.payee;
  const values = { payer, payee, n: payment.points };
  switch (payment.why) {
    case "score":
      return fmt(gettext("%(payer)s paid %(payee)s %(n)s in scores"), values);
    case "block":
      return fmt(gettext("%(payer)s paid %(payee)s %(n)s for the block"), values);
    case "auction":
      return fmt(gettext("%(payer)s paid %(payee)s %(n)s for the lead"), values);
    default:
      return fmt(gettext("%(payer)s paid %(payee)s %(n)s"), values);
  }
}

/**
 * The feed: newest first, capped, with a live region announcing each new line.
 */
export class FeedView {
  constructor(list, { max = 60 } = {}) {
    this.list = list;
    this.max = max;
  }

  /** The whole log again, from a connection's first state (the server's `log`). */
  reset(events, names) {
    this.list.replaceChildren();
    this.add(events, names);
  }

  add(events, names) {
    for (const { type, text } of sentences(events, names)) {
      const li = document.createElement("li");
      li.className = `feed__item feed__item--${type}`;
      li.textContent = text;
      this.list.prepend(li);
    }
    while (this.list.children.length > this.max) this.list.lastElementChild.remove();
  }
}
