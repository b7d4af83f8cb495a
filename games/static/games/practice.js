/**
 * A practice game's hint (Game.practice): at each of the player's decisions, what they may
 * do and what each choice would score or cost. Every figure is the server's, from the
 * player's own view (never the other hand nor the boneyard): the legal actions (`legal`),
 * the engine's preview of each placement (`play_preview`) and the auction's costs
 * (`auction.net_cost`, `accept_cost`). This script only puts them into words; it follows
 * the page's states through main.js's "game:state" event.
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

function playHint(view) {
  const all = placements(view);
  const scoring = all.filter((e) => e.points > 0);
  const others = [...new Set(all.filter((e) => e.points === 0).map((e) => tileText(e.tile)))];
  if (!scoring.length) {
    return fmt(gettext("No tile scores now. You may play: %(list)s."), { list: others.join(", ") });
  }
  const said = scoring.map((e) => {
    const where = e.ends.map(endPhrase).join(gettext(" or "));
    return where
      ? fmt(gettext("%(tile)s %(where)s scores %(p)s"), { tile: tileText(e.tile), where, p: e.points })
      : fmt(gettext("%(tile)s scores %(p)s"), { tile: tileText(e.tile), p: e.points });
  });
  let text = `${said.join("; ")}.`;
  if (others.length) text += ` ${fmt(gettext("No score: %(list)s."), { list: others.join(", ") })}`;
  return text;
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
  if (legal.some((a) => a.do === "play" || a.do === "lead")) return { kind: "play", text: playHint(view) };
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

function show(view) {
  const hint = hintFor(view);
  box.dataset.hint = hint.kind;
  out.textContent = hint.text ?? idle;
}

if (root && box && out) {
  root.addEventListener("game:state", (event) => show(event.detail.view));
  if (window.__game?.view) show(window.__game.view); // a state drawn before this module ran
}
