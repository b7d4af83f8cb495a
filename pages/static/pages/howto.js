/**
 * The how-to page's pictures, drawn by the game page's own modules from the short game the
 * engine played on the server (pages/howto.py): the table (board.js), the counters
 * (balances.js) and the clocks (clocks.js). It decides nothing: it draws what it was given.
 */
import { renderChips } from "../games/game/balances.js";
import { BoardView, svgEl } from "../games/game/board.js";
import { clockReadout, drawClock } from "../games/game/clocks.js";

const data = JSON.parse(document.getElementById("howto-examples")?.textContent || "{}");

/** The game's table, with what each open end counts written just beyond it. */
class ExampleBoard extends BoardView {
  constructor(svg, counts) {
    super(svg);
    this.counts = counts;
  }

  render() {
    super.render();
    const layout = this.layout;
    if (!layout || !layout.tiles.length) return;
    const r = Math.max(10, layout.unit * 0.4);
    const g = svgEl("g", { class: "howto-counts", "aria-hidden": "true" }, this.svg);
    // The labels may stand past the table's edge: the picture widens to hold them.
    let [x1, y1, x2, y2] = [0, 0, layout.width, layout.height];
    for (const [end, counts] of Object.entries(this.counts || {})) {
      const at = layout.ends[end];
      if (!at) continue;
      const x = at.ox + at.dx * (r - layout.unit / 2 + 2);
      const y = at.oy + at.dy * (r - layout.unit / 2 + 2);
      svgEl("circle", { class: "howto-count", cx: x, cy: y, r }, g);
      const text = svgEl("text", { class: "howto-count__text", x, y, "text-anchor": "middle", "dominant-baseline": "central" }, g);
      text.textContent = String(counts);
      [x1, y1, x2, y2] = [Math.min(x1, x - r - 2), Math.min(y1, y - r - 2), Math.max(x2, x + r + 2), Math.max(y2, y + r + 2)];
    }
    this.svg.setAttribute("viewBox", `${x1} ${y1} ${x2 - x1} ${y2 - y1}`);
  }
}

for (const svg of document.querySelectorAll("svg[data-example]")) {
  const table = data.tables?.[svg.dataset.example];
  if (table) new ExampleBoard(svg, table.ends).update(table.board, { lastTile: table.last });
}

for (const el of document.querySelectorAll(".howto [data-balance]")) {
  renderChips(el, Number(el.dataset.balance));
}

for (const box of document.querySelectorAll(".howto [data-clock]")) {
  const reading = data.clocks?.[box.dataset.clock];
  if (!reading) continue;
  const seat = reading.view.clock.running;
  const slot = { box, delay: box.querySelector(".clock__delay"), bank: box.querySelector(".clock__bank") };
  drawClock(slot, clockReadout(reading.view, reading.at_ms)[seat], reading.view);
}
