// Unit tests of the board's layout math (games/static/games/game/board-layout.js).
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  DEFAULTS,
  layoutBoard,
  pipPositions,
} from "../../games/static/games/game/board-layout.js";

const PHONE = { width: 374, height: 360 };
const DESKTOP = { width: 900, height: 560 };

/** A PLACED tile as the view sends it: `inner` faces the centre. */
function placed(inner, outer) {
  const [hi, lo] = inner >= outer ? [inner, outer] : [outer, inner];
  return { tile: `${hi}-${lo}`, inner, outer, double: inner === outer };
}

/** A chain of `n` tiles starting from `value`, with a double every `doubleEvery` tiles. */
function chain(value, n, doubleEvery = 0) {
  const tiles = [];
  let v = value;
  for (let i = 0; i < n; i += 1) {
    if (doubleEvery && i % doubleEvery === doubleEvery - 1) {
      tiles.push(placed(v, v));
    } else {
      const next = (v + 1 + (i % 5)) % 7;
      tiles.push(placed(v, next === v ? (v + 1) % 7 : next));
      v = tiles[tiles.length - 1].outer;
    }
  }
  return tiles;
}

function board({ lead, left = [], right = [], up = [], down = [], spinner = null }) {
  return { lead, left, right, up, down, spinner, ends: [], count: 0 };
}

function rectOf(t) {
  return { x1: t.cx - t.w / 2, y1: t.cy - t.h / 2, x2: t.cx + t.w / 2, y2: t.cy + t.h / 2 };
}

function assertInside(layout, size) {
  for (const t of layout.tiles) {
    const r = rectOf(t);
    assert.ok(r.x1 >= -0.01 && r.y1 >= -0.01, `${t.tile} starts outside: ${JSON.stringify(r)}`);
    assert.ok(
      r.x2 <= size.width + 0.01 && r.y2 <= size.height + 0.01,
      `${t.tile} ends outside ${size.width}x${size.height}: ${JSON.stringify(r)}`,
    );
  }
  const b = layout.bbox;
  assert.ok(b.x >= -0.01 && b.y >= -0.01);
  assert.ok(b.x + b.w <= size.width + 0.01 && b.y + b.h <= size.height + 0.01);
}

function assertNoOverlap(layout) {
  const rects = layout.tiles.map(rectOf);
  for (let i = 0; i < rects.length; i += 1) {
    for (let j = i + 1; j < rects.length; j += 1) {
      const a = rects[i];
      const b = rects[j];
      const share = a.x1 < b.x2 - 0.01 && b.x1 < a.x2 - 0.01 && a.y1 < b.y2 - 0.01 && b.y1 < a.y2 - 0.01;
      assert.ok(!share, `${layout.tiles[i].tile} overlaps ${layout.tiles[j].tile}`);
    }
  }
}

function byArm(layout, arm) {
  return layout.tiles.filter((t) => t.arm === arm).sort((a, b) => a.index - b.index);
}

describe("layoutBoard", () => {
  it("lays out nothing for an empty table", () => {
    const layout = layoutBoard(null, DESKTOP);
    assert.equal(layout.mode, "empty");
    assert.deepEqual(layout.tiles, []);
    assert.equal(layoutBoard({ lead: null }, DESKTOP).tiles.length, 0);
  });

  it("draws a lone non-double lead horizontally, left half = inner (R4.4 lead [6|4])", () => {
    const layout = layoutBoard(board({ lead: placed(6, 4) }), DESKTOP);
    assert.equal(layout.tiles.length, 1);
    const [t] = layout.tiles;
    assert.equal(t.angle, 0);
    assert.deepEqual(t.values, [6, 4]);
    assert.ok(t.w > t.h, "horizontal");
    assert.equal(layout.unit, 44, "a short line is drawn at full size");
    assertInside(layout, DESKTOP);
  });

  it("draws doubles crosswise on the line (R3.3)", () => {
    const layout = layoutBoard(
      board({ lead: placed(6, 4), right: [placed(4, 4), placed(4, 1)] }),
      DESKTOP,
    );
    const [dbl, after] = byArm(layout, "right");
    assert.ok(dbl.double && dbl.h > dbl.w, "the double stands across the horizontal line");
    assert.ok(after.w > after.h, "the next tile continues along the line");
    assert.ok(after.cx > dbl.cx);
    assertNoOverlap(layout);
  });

  it("keeps a short round straight and centred on a desktop", () => {
    const b = board({ lead: placed(5, 5), left: chain(5, 4), right: chain(5, 4), spinner: { tile: "5-5", arm: "lead", index: 0 } });
    const layout = layoutBoard(b, DESKTOP);
    assert.equal(layout.mode, "straight");
    assert.ok(layout.tiles.every((t) => Math.abs(t.cy - layout.tiles[0].cy) < 0.01), "one line");
    assertInside(layout, DESKTOP);
    assertNoOverlap(layout);
    const mid = layout.bbox.x + layout.bbox.w / 2;
    assert.ok(Math.abs(mid - DESKTOP.width / 2) < 1, "centred");
  });

  it("shrinks first: a medium line stays straight while tiles are readable", () => {
    const b = board({ lead: placed(6, 3), left: chain(6, 5), right: chain(3, 5) });
    const layout = layoutBoard(b, DESKTOP);
    assert.equal(layout.mode, "straight");
    assert.ok(layout.unit < 44 && layout.unit >= DEFAULTS.straightMinUnit, `unit ${layout.unit}`);
    assertInside(layout, DESKTOP);
  });

  it("turns corners when a straight line would need tiny tiles (phone upright)", () => {
    const b = board({ lead: placed(6, 3), left: chain(6, 9, 4), right: chain(3, 10, 3) });
    const layout = layoutBoard(b, PHONE);
    assert.equal(layout.mode, "snake");
    const turned = layout.tiles.filter((t) => !t.double && t.h > t.w);
    assert.ok(turned.length >= 2, "some non-double tiles run vertically: the line turned");
    // Bigger than the straight line would allow: 20 tiles of 2 units in ~358 px -> < 9 px.
    assert.ok(layout.unit > 14, `unit ${layout.unit}`);
    assertInside(layout, PHONE);
    assertNoOverlap(layout);
  });

  it("the right arm sweeps down and the left arm sweeps up (they never cross)", () => {
    const b = board({ lead: placed(6, 3), left: chain(6, 10), right: chain(3, 10) });
    const layout = layoutBoard(b, PHONE);
    assert.equal(layout.mode, "snake");
    const leadY = layout.tiles.find((t) => t.arm === "lead").cy;
    assert.ok(byArm(layout, "right").every((t) => t.cy >= leadY - 0.01));
    assert.ok(byArm(layout, "left").every((t) => t.cy <= leadY + 0.01));
    assertNoOverlap(layout);
  });

  it("consecutive tiles of an arm touch (the chain is continuous)", () => {
    const b = board({ lead: placed(6, 3), left: chain(6, 9, 4), right: chain(3, 10, 3) });
    const layout = layoutBoard(b, PHONE);
    for (const arm of ["left", "right"]) {
      const tiles = [layout.tiles.find((t) => t.arm === "lead"), ...byArm(layout, arm)];
      for (let i = 1; i < tiles.length; i += 1) {
        const a = rectOf(tiles[i - 1]);
        const c = rectOf(tiles[i]);
        const gapX = Math.max(a.x1 - c.x2, c.x1 - a.x2);
        const gapY = Math.max(a.y1 - c.y2, c.y1 - a.y2);
        assert.ok(gapX <= 0.01 && gapY <= 0.01, `${arm}[${i - 1}] does not touch its neighbour`);
      }
    }
  });

  it("places the spinner's lateral arms above and below it (R3.2, R3.4)", () => {
    const spinner = { tile: "5-5", arm: "lead", index: 0 };
    const b = board({
      lead: placed(5, 5),
      left: [placed(5, 2)],
      right: [placed(5, 0)],
      up: [placed(5, 3), placed(3, 1)],
      down: [placed(5, 4)],
      spinner,
    });
    const layout = layoutBoard(b, DESKTOP);
    const s = layout.tiles.find((t) => t.spinner);
    assert.equal(s.tile, "5-5");
    assert.ok(s.h > s.w, "the spinner stands across the main line");
    const up = byArm(layout, "up");
    const down = byArm(layout, "down");
    assert.equal(up.length, 2);
    assert.ok(up.every((t) => Math.abs(t.cx - s.cx) < 0.01 && t.cy < s.cy), "up arm above");
    assert.ok(up[1].cy < up[0].cy, "outwards");
    assert.ok(up.every((t) => t.h > t.w), "non-doubles run along the vertical arm");
    assert.ok(down.every((t) => Math.abs(t.cx - s.cx) < 0.01 && t.cy > s.cy), "down arm below");
    const [l] = byArm(layout, "left");
    const [r] = byArm(layout, "right");
    assert.ok(l.cx < s.cx && r.cx > s.cx);
    assertNoOverlap(layout);
    assertInside(layout, DESKTOP);
    // The inner half of an up-arm tile faces the spinner: local +x points up (270 deg).
    assert.equal(up[0].angle, 270);
    assert.deepEqual(up[0].values, [5, 3]);
  });

  it("branches lateral arms from a spinner that is not the lead", () => {
    const b = board({
      lead: placed(6, 3),
      right: [placed(3, 3), placed(3, 1)],
      left: [placed(6, 2)],
      up: [placed(3, 5)],
      down: [placed(3, 0), placed(0, 2)],
      spinner: { tile: "3-3", arm: "right", index: 0 },
    });
    const layout = layoutBoard(b, DESKTOP);
    const s = layout.tiles.find((t) => t.spinner);
    assert.equal(s.arm, "right");
    assert.ok(s.cx > layout.tiles.find((t) => t.arm === "lead").cx);
    for (const t of [...byArm(layout, "up"), ...byArm(layout, "down")]) {
      assert.ok(Math.abs(t.cx - s.cx) < 0.01);
    }
    assert.ok(byArm(layout, "up")[0].cy < s.cy);
    assert.ok(byArm(layout, "down")[0].cy > s.cy);
    assertNoOverlap(layout);
  });

  it("fits a full round with four long arms on a phone, without overlaps", () => {
    const b = board({
      lead: placed(4, 4),
      left: chain(4, 7, 3),
      right: chain(4, 7, 4),
      up: chain(4, 6, 5),
      down: chain(4, 6),
      spinner: { tile: "4-4", arm: "lead", index: 0 },
    });
    for (const size of [PHONE, DESKTOP, { width: 300, height: 260 }, { width: 1200, height: 300 }]) {
      const layout = layoutBoard(b, size);
      assert.equal(layout.tiles.length, 27);
      assertInside(layout, size);
      assertNoOverlap(layout);
    }
  });

  it("reports every open end inside the table, on the exposed half", () => {
    const b = board({
      lead: placed(5, 5),
      left: chain(5, 3),
      right: chain(5, 9),
      up: [],
      down: [placed(5, 1)],
      spinner: { tile: "5-5", arm: "lead", index: 0 },
    });
    const layout = layoutBoard(b, PHONE);
    for (const name of ["left", "right", "up", "down"]) {
      const e = layout.ends[name];
      assert.ok(e, `end ${name}`);
      assert.ok(e.x >= 0 && e.x <= PHONE.width && e.y >= 0 && e.y <= PHONE.height, name);
    }
    const s = layout.tiles.find((t) => t.spinner);
    assert.ok(layout.ends.up.y < s.cy && Math.abs(layout.ends.up.x - s.cx) < 0.01, "empty up arm: the spinner's upper half");
    const last = byArm(layout, "right").at(-1);
    const e = layout.ends.right;
    assert.ok(Math.hypot(e.x - last.cx, e.y - last.cy) <= layout.unit * 0.51, "right end on its last tile's outer half");
  });

  it("never overflows nor overlaps on random boards and sizes", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 150; k += 1) {
      const withSpinner = rnd() < 0.6;
      const lateral = withSpinner && rnd() < 0.7;
      const b = board({
        lead: withSpinner ? placed(3, 3) : placed(6, 2),
        left: chain(3, Math.floor(rnd() * 9), 1 + Math.floor(rnd() * 5)),
        right: chain(3, Math.floor(rnd() * 9), 1 + Math.floor(rnd() * 5)),
        up: lateral ? chain(3, Math.floor(rnd() * 5)) : [],
        down: lateral ? chain(3, Math.floor(rnd() * 5)) : [],
        spinner: withSpinner ? { tile: "3-3", arm: "lead", index: 0 } : null,
      });
      const size = { width: 260 + Math.floor(rnd() * 1000), height: 200 + Math.floor(rnd() * 600) };
      const layout = layoutBoard(b, size);
      assertInside(layout, size);
      assertNoOverlap(layout);
      assert.ok(layout.unit > 0 && layout.unit <= 44);
    }
  });
});

describe("pipPositions", () => {
  it("has n pips for n = 0..6", () => {
    for (let n = 0; n <= 6; n += 1) assert.equal(pipPositions(n).length, n);
  });
});
