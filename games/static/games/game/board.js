/**
 * SVG rendering of the table, from a layout computed by board-layout.js.
 *
 * The renderer draws only what the view says is on the table; the targets it shows for a
 * selected tile come from the `legal` actions (the page decides nothing).
 */
import { DEFAULTS, layoutBoard, pipPositions } from "./board-layout.js";

const NS = "http://www.w3.org/2000/svg";
// A target's disc: big enough for a finger; its stroke (game.css) is kept inside the table.
const TARGET_RADIUS = 22;
const TARGET_STROKE = 3;

/** The biggest tile for a table this size: a few tiles on a laptop's wide felt were drawn
 * at a phone's size (DEFAULTS.maxUnit), lost in the middle of it. */
export function maxUnitFor(width, height) {
  return Math.max(DEFAULTS.maxUnit, Math.min(60, Math.min(width, height) / 6));
}

/** Create an SVG element with attributes. */
export function svgEl(name, attrs = {}, parent = null) {
  const el = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

/**
 * Draw one tile centred on 0,0 in local units of `u` px: 2u x u, first value on the left.
 * Used on the table and (inside its own <svg>) in the hand and the summaries.
 */
export function drawTile(parent, values, u, className = "") {
  const g = svgEl("g", { class: `tile ${className}`.trim() }, parent);
  const inset = Math.max(0.6, u * 0.04); // a hairline gap so touching tiles read apart
  // Never negative: a table squeezed to a few pixels (mid-resize) draws nothing, no error.
  svgEl(
    "rect",
    {
      class: "tile__face",
      x: -u + inset,
      y: -u / 2 + inset,
      width: Math.max(0, 2 * u - 2 * inset),
      height: Math.max(0, u - 2 * inset),
      rx: Math.max(0, u * 0.14),
    },
    g,
  );
  svgEl("line", { class: "tile__bar", x1: 0, y1: -u / 2 + u * 0.16, x2: 0, y2: u / 2 - u * 0.16 }, g);
  values.forEach((value, half) => {
    const ox = half === 0 ? -u / 2 : u / 2;
    for (const [px, py] of pipPositions(value)) {
      svgEl("circle", { class: "tile__pip", cx: ox + px * u, cy: py * u, r: u * 0.085 }, g);
    }
  });
  return g;
}

/** A standalone <svg> with one tile, e.g. for the hand (vertical: first value on top). */
export function tileSvg(tile, { vertical = true, size = 40, label = "" } = {}) {
  const [a, b] = tile.split("-").map(Number);
  const w = vertical ? size : size * 2;
  const h = vertical ? size * 2 : size;
  const svg = svgEl("svg", {
    viewBox: `${-w / 2} ${-h / 2} ${w} ${h}`,
    width: w,
    height: h,
    class: "tile-svg",
    "aria-hidden": label ? "false" : "true",
    focusable: "false",
  });
  if (label) svgEl("title", {}, svg).textContent = label;
  const g = drawTile(svg, [a, b], size);
  if (vertical) g.setAttribute("transform", "rotate(90)");
  return svg;
}

/** "6-4" -> "[6|4]", the notation of the feed and the labels. */
export function tileText(tile) {
  return tile ? `[${tile.replace("-", "|")}]` : "";
}

/**
 * The table: owns the <svg>, re-lays out on resize, and draws targets for a selected tile.
 */
export class BoardView {
  /**
   * @param {SVGSVGElement} svg
   * @param {{onTarget?: (end: string) => void, endName?: (end: string) => string}} options
   */
  constructor(svg, options = {}) {
    this.svg = svg;
    this.options = options;
    this.board = null;
    this.targets = []; // [{end, label}]
    this.lastTile = null;
    this.layout = null;
    this.resizeObserver = new ResizeObserver(() => this.render());
    this.resizeObserver.observe(svg.parentElement || svg);
  }

  /** The drawing area in px: the svg's own box (it fills its grid cell). */
  size() {
    const r = this.svg.getBoundingClientRect();
    return { width: Math.floor(r.width), height: Math.floor(r.height) };
  }

  update(board, { targets = [], lastTile = null } = {}) {
    this.board = board;
    this.targets = targets;
    this.lastTile = lastTile;
    this.render();
  }

  setTargets(targets) {
    this.targets = targets;
    this.render();
  }

  render() {
    const svg = this.svg;
    const { width, height } = this.size();
    if (!width || !height) return;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // With targets in it, the table is a group of controls, no longer a picture (axe).
    svg.setAttribute("role", this.targets.length ? "group" : "img");
    svg.replaceChildren();
    // Targets sit just outside their ends: room is kept for them inside the frame, so that
    // one is never clamped back onto the tiles (the spinner) nor cut by the edge.
    const radius = TARGET_RADIUS;
    const options = { maxUnit: maxUnitFor(width, height) };
    if (this.targets.length) options.padding = 2 * radius + TARGET_STROKE;
    const layout = layoutBoard(this.board, { width, height }, options);
    this.layout = layout;
    svg.dataset.mode = layout.mode;
    svg.dataset.tiles = String(layout.tiles.length);
    const u = layout.unit;

    const tiles = svgEl("g", { class: "board__tiles" }, svg);
    for (const t of layout.tiles) {
      const cls = [
        t.double ? "tile--double" : "",
        t.spinner ? "tile--spinner" : "",
        t.tile === this.lastTile ? "tile--last" : "",
      ].join(" ");
      const g = drawTile(tiles, t.values, u, cls);
      g.setAttribute("transform", `translate(${t.cx.toFixed(2)} ${t.cy.toFixed(2)}) rotate(${t.angle})`);
      g.dataset.tile = t.tile;
      g.dataset.arm = t.arm;
    }

    // Open ends: a frame just inside the exposed half, clear of its pips.
    const ends = svgEl("g", { class: "board__ends" }, svg);
    const openEnds = this.board?.ends || [];
    for (const e of openEnds) {
      const at = layout.ends[e.end];
      if (!at) continue;
      // A double at an end is framed whole: its middle, where the end's square falls, has
      // pips on both sides.
      const holder = layout.tiles.find((t) => Math.abs(t.cx - at.x) < t.w / 2 && Math.abs(t.cy - at.y) < t.h / 2);
      const whole = holder?.double;
      const [cx, cy] = whole ? [holder.cx, holder.cy] : [at.x, at.y];
      const hw = whole ? holder.w / 2 - u * 0.08 : u * 0.42;
      const hh = whole ? holder.h / 2 - u * 0.08 : u * 0.42;
      const ring = svgEl(
        "rect",
        { class: "end-ring", x: cx - hw, y: cy - hh, width: 2 * hw, height: 2 * hh, rx: u * 0.12 },
        ends,
      );
      ring.dataset.end = e.end;
    }

    // Targets for a selected tile that fits several ends: big, focusable, labelled.
    const targets = svgEl("g", { class: "board__targets" }, svg);
    const edge = radius + TARGET_STROKE;
    for (const target of this.targets) {
      const at = layout.ends[target.end];
      if (!at) continue;
      // Just outside the open end, where the tile would go (two empty arms of a lone
      // spinner share its centre square, but not their outside), kept inside the table.
      // Pushed a little further than the disc's radius, so that it never hides the spinner.
      const push = radius + u * 0.15;
      const x = Math.min(Math.max(at.ox + at.dx * push, edge), width - edge);
      const y = Math.min(Math.max(at.oy + at.dy * push, edge), height - edge);
      const g = svgEl(
        "g",
        {
          class: "target",
          role: "button",
          tabindex: 0,
          "aria-label": target.label,
          "data-end": target.end,
        },
        targets,
      );
      svgEl("circle", { class: "target__disc", cx: x, cy: y, r: radius }, g);
      const text = svgEl("text", { class: "target__text", x, y, "text-anchor": "middle", "dominant-baseline": "central" }, g);
      // An arrow the way the tile would go: it fits the disc in every language (the
      // word is in the label and on the buttons below the hand).
      text.textContent = Math.abs(at.dx) >= Math.abs(at.dy) ? (at.dx < 0 ? "←" : "→") : at.dy < 0 ? "↑" : "↓";
      svgEl("title", {}, g).textContent = target.label;
      const fire = (ev) => {
        ev.preventDefault();
        this.options.onTarget?.(target.end);
      };
      g.addEventListener("click", fire);
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") fire(ev);
      });
    }
  }

  /** The end whose target (or ring) is under a page point, for drag and drop. */
  endAt(clientX, clientY) {
    const el = document.elementFromPoint(clientX, clientY);
    const hit = el?.closest?.("[data-end]");
    return hit ? hit.getAttribute("data-end") || hit.dataset.end : null;
  }

  /** The nearest of `ends` to a page point (drag and drop onto the table). */
  nearestEnd(clientX, clientY, ends) {
    if (!this.layout) return null;
    const r = this.svg.getBoundingClientRect();
    const x = clientX - r.left;
    const y = clientY - r.top;
    let best = null;
    let bestD = Infinity;
    for (const end of ends) {
      const at = this.layout.ends[end];
      if (!at) continue;
      const d = Math.hypot(at.x - x, at.y - y);
      if (d < bestD) {
        bestD = d;
        best = end;
      }
    }
    return best;
  }
}
