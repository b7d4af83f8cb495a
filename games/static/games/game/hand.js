/**
 * The player's own tiles. Playable tiles come from `legal` only: the hand never asks
 * whether a tile "fits" — the server already said which (tile, end) pairs are legal.
 *
 * Keyboard: tiles form one tab stop (roving tabindex); arrows move between them;
 * Enter/Space plays (or selects, when the tile fits several ends).
 * Pointer: click, or drag onto the table (dropped on the nearest legal end).
 */
import { tileSvg, tileText } from "./board.js";

/**
 * Which tiles can be played now and where, from the view's `legal` list.
 * @returns {Map<string, {kind: "play"|"lead", ends: string[], actions: object[]}>}
 */
export function playableTiles(legal) {
  const out = new Map();
  for (const action of legal || []) {
    if (action.do !== "play" && action.do !== "lead") continue;
    const entry = out.get(action.tile) || { kind: action.do, ends: [], actions: [] };
    if (action.end) entry.ends.push(action.end);
    entry.actions.push(action);
    out.set(action.tile, entry);
  }
  return out;
}

export class HandView {
  /**
   * @param {HTMLElement} root
   * @param {{onActivate: (tile: string) => void, onDrop: (tile: string, x: number, y: number) => void,
   *          onRefused: (tile: string) => void}} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    this.tiles = [];
    this.playable = new Map();
    this.selected = null;
    this.focusIndex = 0;
    root.addEventListener("keydown", (e) => this.onKey(e));
  }

  /**
   * @param {string[]|null} hand
   * @param {Map} playable   from playableTiles()
   * @param {string|null} mustPlay
   */
  update(hand, playable, mustPlay, selected = null) {
    const hadFocus = this.root.contains(document.activeElement);
    this.tiles = hand || [];
    this.playable = playable;
    this.selected = selected;
    this.root.replaceChildren();
    this.root.classList.toggle("hand--active", playable.size > 0);
    if (this.focusIndex >= this.tiles.length) this.focusIndex = Math.max(0, this.tiles.length - 1);
    // Start keyboard focus on the first playable tile.
    const firstPlayable = this.tiles.findIndex((t) => playable.has(t));
    if (firstPlayable >= 0 && !playable.has(this.tiles[this.focusIndex])) this.focusIndex = firstPlayable;

    this.tiles.forEach((tile, i) => {
      const info = playable.get(tile);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hand-tile";
      button.dataset.tile = tile;
      button.tabIndex = i === this.focusIndex ? 0 : -1;
      const [a, b] = tile.split("-");
      let label = interpolate(gettext("Tile %(a)s-%(b)s"), { a, b }, true);
      if (info) {
        button.classList.add("hand-tile--playable");
        label += info.ends.length > 1 ? ` — ${gettext("fits several ends")}` : ` — ${gettext("playable")}`;
      } else {
        button.setAttribute("aria-disabled", "true");
      }
      if (tile === mustPlay) {
        button.classList.add("hand-tile--must");
        label += ` — ${gettext("drawn tile: must be played")}`;
        const badge = document.createElement("span");
        badge.className = "hand-tile__badge";
        badge.textContent = gettext("Drawn");
        button.appendChild(badge);
      }
      if (tile === selected) {
        button.classList.add("hand-tile--selected");
        button.setAttribute("aria-pressed", "true");
      }
      button.setAttribute("aria-label", label);
      button.title = tileText(tile);
      button.appendChild(tileSvg(tile, { vertical: true, size: 40 }));
      button.addEventListener("click", () => this.activate(tile));
      button.addEventListener("focus", () => {
        this.focusIndex = i;
      });
      if (info) this.enableDrag(button, tile);
      this.root.appendChild(button);
    });
    if (hadFocus) this.focus();
  }

  activate(tile) {
    if (this.suppressClick) return;
    if (this.playable.has(tile)) this.handlers.onActivate(tile);
    else this.handlers.onRefused?.(tile);
  }

  focus() {
    const button = this.root.children[this.focusIndex];
    button?.focus();
  }

  /** Focus the first playable tile; false when no tile can be played. */
  focusPlayable() {
    const index = this.tiles.findIndex((t) => this.playable.has(t));
    if (index < 0) return false;
    [...this.root.children].forEach((b, i) => {
      b.tabIndex = i === index ? 0 : -1;
    });
    this.focusIndex = index;
    this.root.children[index].focus();
    return true;
  }

  onKey(e) {
    const n = this.tiles.length;
    if (!n) return;
    let next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (this.focusIndex + 1) % n;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (this.focusIndex - 1 + n) % n;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = n - 1;
    if (next === null) return;
    e.preventDefault();
    [...this.root.children].forEach((b, i) => {
      b.tabIndex = i === next ? 0 : -1;
    });
    this.focusIndex = next;
    const button = this.root.children[next];
    button.focus();
    button.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** Drag a playable tile onto the table; a short move stays a click. */
  enableDrag(button, tile) {
    button.addEventListener("pointerdown", (down) => {
      if (down.button !== 0) return;
      const start = { x: down.clientX, y: down.clientY };
      let ghost = null;
      const move = (e) => {
        if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 12) return;
        if (!ghost) {
          ghost = button.cloneNode(true);
          ghost.classList.add("hand-tile--ghost");
          ghost.removeAttribute("id");
          document.body.appendChild(ghost);
          button.classList.add("hand-tile--dragging");
        }
        ghost.style.left = `${e.clientX}px`;
        ghost.style.top = `${e.clientY}px`;
      };
      const up = (e) => {
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", up);
        window.removeEventListener("pointercancel", up);
        if (!ghost) return;
        ghost.remove();
        button.classList.remove("hand-tile--dragging");
        // The click that follows a drag must not also activate the tile.
        this.suppressClick = true;
        setTimeout(() => {
          this.suppressClick = false;
        }, 0);
        if (e.type === "pointerup") this.handlers.onDrop(tile, e.clientX, e.clientY);
      };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
      window.addEventListener("pointercancel", up);
    });
  }
}
