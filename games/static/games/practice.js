/**
 * A practice game's hint (Game.practice): at each of the player's decisions, what they may
 * do and what each choice would score or cost. Every figure is the server's, from the
 * player's own view (never the other hand nor the boneyard): the legal actions (`legal`),
 * the engine's preview of each placement (`play_preview`) and the auction's costs
 * (`auction.net_cost`, `accept_cost`). This script only puts them into words, and lights
 * the best placement's tile and end; it follows the page's states through main.js's
 * "game:state" event.
 */
import { tileText } from "./game/board.js";
import { endPhrase } from "./game/feed.js";

const fmt = (text, values) => interpolate(text, values, true);

const isMine = (view) =>
  view.status === "playing" && view.seat !== null && view.to_act === view.seat && !view.awaiting_reveal;

/** The legal placements with the engine's preview, one entry per tile and score, best first. */
function placements(view) {
  const entries = new Map();
  for (const action of view.legal || []) {
    if (action.do !== "play" && action.do !== "lead") continue;
    const preview = view.play_preview?.[`${action.tile}:${action.do === "lead" ? "lead" : action.end}`];
    if (!preview) continue;
    const key = `${action.tile}:${preview.points}`;
    const entry = entries.get(key) || { tile: action.tile, points: preview.points, ends: [] };
    if (action.do === "play") entry.ends.push(action.end);
    entries.set(key, entry);
  }
  return [...entries.values()].sort((a, b) => b.points - a.points);
}

/** The best placement, lit on the hand and the table rather than listed: one tile named
 * once, with what it scores where (the first of its ends that scores that much). */
function playHint(view) {
  const [best] = placements(view);
  if (!best || best.points <= 0) {
    return { text: gettext("No tile scores now: any tile that fits will do."), tile: null, end: null };
  }
  const end = best.ends[0] ?? null;
  const values = { tile: tileText(best.tile), where: endPhrase(end), p: best.points };
  const text = end
    ? fmt(gettext("Best: %(tile)s %(where)s scores %(p)s (lit on the table)."), values)
    : fmt(gettext("Best: %(tile)s scores %(p)s (lit in your hand)."), values);
  return { text, tile: best.tile, end };
}

function auctionHint(view, legal) {
  const auc = view.auction || {};
  const cost = auc.net_cost?.[String(auc.min_bid)];
  const range = { min: auc.min_bid, max: auc.max_bid, cost };
  if (legal.some((a) => a.do === "renounce")) {
    return fmt(
      gettext("Renounce: the jockey leads for free. Or bid %(min)s to %(max)s: accepted, a bid of %(min)s costs you %(cost)s and you lead."),
      range,
    );
  }
  const accept = fmt(gettext("Accept: your opponent pays you %(paid)s and leads."), { paid: auc.accept_cost });
  if (!legal.some((a) => a.do === "raise")) return accept;
  return `${accept} ${fmt(gettext("Or raise to %(min)s to %(max)s: accepted, %(min)s costs you %(cost)s and you lead."), range)}`;
}

/** The hint for `view` and its kind; null text when the player has no decision to make. */
export function hintFor(view) {
  if (!isMine(view)) return { kind: "idle", text: null };
  const legal = view.legal || [];
  if (view.phase === "auction") return { kind: "auction", text: auctionHint(view, legal) };
  if (legal.some((a) => a.do === "play" || a.do === "lead")) return { kind: "play", ...playHint(view) };
  if (legal.some((a) => a.do === "draw")) {
    const ends = [...new Set((view.board?.ends || []).map((e) => e.value))].join(", ");
    return { kind: "draw", text: fmt(gettext("None of your tiles matches an open end (%(ends)s): draw."), { ends }) };
  }
  return { kind: "idle", text: null };
}

// In the page (not under the unit tests, which import hintFor alone).
const root = globalThis.document?.getElementById("game");
const box = globalThis.document?.getElementById("practice-hint");
const out = box?.querySelector(".practice-hint__text");
const idle = out?.textContent || "";

/** The hinted tile in the hand and its end on the table, lit (drawn by main.js already). */
function light(hint) {
  for (const lit of document.querySelectorAll(".hand-tile--hint, .end-ring--hint")) {
    lit.classList.remove("hand-tile--hint", "end-ring--hint");
  }
  if (!hint.tile) return;
  document.querySelector(`#hand [data-tile="${hint.tile}"]`)?.classList.add("hand-tile--hint");
  if (hint.end) document.querySelector(`#board .end-ring[data-end="${hint.end}"]`)?.classList.add("end-ring--hint");
}

function show(view) {
  const hint = hintFor(view);
  box.dataset.hint = hint.kind;
  out.textContent = hint.text ?? idle;
  light(hint);
}

if (root && box && out) {
  root.addEventListener("game:state", (event) => show(event.detail.view));
  if (window.__game?.view) show(window.__game.view); // a state drawn before this module ran
}
