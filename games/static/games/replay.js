/**
 * The replay: every step of a finished game arrives once with the page (JSON computed by
 * the engine on the server, games/replay/page.py) and is drawn here with the game page's
 * own modules: the SVG table (board.js), the log's sentences (feed.js), the clock format
 * (clocks.js). Stepping, going back and playing never load anything; the address keeps
 * ?step=N (replaceState) so that a step can be shared. The page decides nothing: it shows
 * the steps it was given. Words come from the JavaScript catalogue (static/jsi18n/).
 */
import { BoardView, tileSvg, tileText } from "./game/board.js";
import { formatClock } from "./game/clocks.js";
import { reasonText, sentences } from "./game/feed.js";

const PLAY_EVERY_MS = 900;
const fmt = (text, values) => interpolate(text, values, true);

const root = document.getElementById("replay");
const steps = JSON.parse(document.getElementById("replay-steps")?.textContent || "[]");
const names = JSON.parse(document.getElementById("replay-players")?.textContent || "[]");

function phaseText(table) {
  switch (table.phase) {
    case "start":
      return gettext("Waiting for the start");
    case "auction":
      return gettext("Auction");
    case "lead":
      return gettext("Lead");
    case "play":
      return gettext("Playing");
    case "round_over":
      return gettext("Round over");
    case "finished":
      return table.status === "cancelled" ? gettext("Cancelled") : gettext("Game over");
    default:
      return table.phase;
  }
}

/** What a step did, in words: the engine's events as the game's log says them. */
function stepText(step) {
  if (!step.action?.do) return gettext("Start of the game");
  const lines = sentences(step.events, names).map((line) => line.text);
  if (lines.length) return lines.join(" · ");
  const who = step.seat === null || step.seat === undefined ? "" : `${names[step.seat]} `;
  return `${who}${step.label}`;
}

function seatPanel(el, step, seat) {
  const player = step.players[seat];
  const table = step.table;
  el.replaceChildren();
  el.classList.toggle("replay__seat--to-act", table.to_act === seat);
  const head = document.createElement("p");
  head.className = "replay__seat-head";
  const name = document.createElement("strong");
  name.textContent = names[seat];
  head.append(name);
  const facts = [
    fmt(gettext("Balance %(n)s"), { n: player.balance }),
    fmt(gettext("Bank %(t)s"), { t: formatClock(player.bank * 1000) }),
  ];
  if (table.jockey === seat) facts.push(gettext("jockey"));
  if (table.to_act === seat) facts.push(gettext("to act"));
  if (table.winner === seat) facts.push(gettext("winner"));
  const span = document.createElement("span");
  span.className = "muted";
  span.textContent = ` · ${facts.join(" · ")}`;
  head.append(span);
  const hand = document.createElement("p");
  hand.className = "replay__hand";
  hand.setAttribute("role", "img"); // one picture of the tiles, named by its label
  const tiles = step.hands[seat] || [];
  hand.setAttribute(
    "aria-label",
    tiles.length
      ? fmt(gettext("%(p)s's hand: %(tiles)s"), { p: names[seat], tiles: tiles.map(tileText).join(" ") })
      : fmt(gettext("%(p)s's hand is empty"), { p: names[seat] }),
  );
  for (const tile of tiles) hand.append(tileSvg(tile, { size: 16 }));
  if (!tiles.length) hand.textContent = "—";
  el.append(head, hand);
}

function infoText(step) {
  const table = step.table;
  const parts = [];
  if (table.round) parts.push(fmt(gettext("Round %(n)s"), { n: table.round }));
  parts.push(phaseText(table));
  parts.push(fmt(gettext("Boneyard: %(n)s"), { n: table.boneyard_left }));
  if (table.board?.lead) parts.push(fmt(gettext("Count %(n)s"), { n: table.board.count }));
  if (table.phase === "finished" && table.reason) parts.push(reasonText(table.reason));
  return parts.join(" · ");
}

class Replay {
  constructor() {
    this.index = -1;
    this.timer = null;
    this.board = new BoardView(document.getElementById("replay-board"));
    this.seats = [0, 1].map((seat) => root.querySelector(`.replay__seat[data-seat="${seat}"]`));
    this.position = document.getElementById("replay-position");
    this.action = document.getElementById("replay-action");
    this.info = document.getElementById("replay-info");
    this.moves = document.getElementById("replay-moves");
    this.playButton = root.querySelector("[data-go=play]");
    this.buildMoves();
    root.querySelector(".replay__controls").addEventListener("click", (event) => {
      const go = event.target.closest("[data-go]")?.dataset.go;
      if (go) this.go(go);
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  buildMoves() {
    const items = steps.map((step, index) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "replay__move";
      button.dataset.step = String(index);
      // One tab stop for the whole list (the current move); arrows move within it.
      button.tabIndex = -1;
      button.textContent = stepText(step);
      button.addEventListener("click", () => {
        this.pause();
        this.show(index);
      });
      li.append(button);
      return li;
    });
    this.moves.replaceChildren(...items);
  }

  go(where) {
    if (where === "play") {
      if (this.timer) this.pause();
      else this.play();
      return;
    }
    this.pause();
    const last = steps.length - 1;
    const target = { first: 0, back: this.index - 1, forward: this.index + 1, last }[where];
    this.show(Math.max(0, Math.min(last, target)));
  }

  play() {
    if (this.index >= steps.length - 1) this.show(0);
    this.playButton.textContent = gettext("Pause");
    this.timer = window.setInterval(() => {
      if (this.index >= steps.length - 1) this.pause();
      else this.show(this.index + 1);
    }, PLAY_EVERY_MS);
  }

  pause() {
    if (!this.timer) return;
    window.clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = gettext("Play");
  }

  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select")) return;
    const inList = this.moves.contains(event.target);
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    if (inList) Object.assign(keys, { ArrowUp: "back", ArrowDown: "forward" });
    const where = keys[event.key];
    if (!where) return;
    event.preventDefault();
    this.go(where);
    if (inList) this.moves.querySelector('[aria-current="step"]')?.focus();
  }

  show(index) {
    const step = steps[index];
    if (!step || index === this.index) return;
    this.index = index;
    const placed = step.action?.do === "play" || step.action?.do === "lead" ? step.action.tile : null;
    this.board.update(step.table.board, { lastTile: placed });
    this.seats.forEach((el, seat) => seatPanel(el, step, seat));
    this.position.textContent = fmt(gettext("Step %(n)s of %(total)s"), { n: index, total: steps.length - 1 });
    this.action.textContent = stepText(step);
    this.info.textContent = infoText(step);
    for (const button of this.moves.querySelectorAll("[aria-current]")) {
      button.removeAttribute("aria-current");
      button.tabIndex = -1;
    }
    const current = this.moves.querySelector(`[data-step="${index}"]`);
    current?.setAttribute("aria-current", "step");
    if (current) current.tabIndex = 0;
    // Keep the current move in view inside the list only: the page itself does not jump.
    if (current) {
      const list = this.moves;
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    // aria-disabled, not disabled: a button pressed up to the end keeps the focus.
    const atStart = String(index === 0);
    const atEnd = String(index === steps.length - 1);
    root.querySelector("[data-go=first]").setAttribute("aria-disabled", atStart);
    root.querySelector("[data-go=back]").setAttribute("aria-disabled", atStart);
    root.querySelector("[data-go=forward]").setAttribute("aria-disabled", atEnd);
    root.querySelector("[data-go=last]").setAttribute("aria-disabled", atEnd);
    root.dataset.step = String(index);
    // For what the page adds around a step (the computer's suggestion, replay_suggest.js).
    root.dispatchEvent(new CustomEvent("replay:step", { detail: { index, step } }));
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(index));
    window.history.replaceState(null, "", url);
  }
}

if (root && steps.length) {
  const replay = new Replay();
  replay.show(Number(root.dataset.start) || 0);
  window.__replay = replay;
}
