/**
 * Board layout: PURE geometry, no DOM, so it can be unit-tested with `node --test`.
 *
 * Input: the `board` of the server's view (docs/engine-api.md) and a viewport size in px.
 * Output: where each tile goes (centre, angle, the two values in drawing order) and where
 * each open end is, in px, such that the whole round fits in the viewport.
 *
 * Why this shape: a round can reach 28 tiles; a straight line of them does not fit on a
 * phone held upright. The policy is "shrink, then turn corners": a straight line is used
 * while its tiles stay readable (`straightMinUnit`); below that the arms snake inside the
 * table as a pinwheel around the spinner (right arm sweeps down, down arm sweeps left,
 * left arm sweeps up, up arm sweeps right), so the arms never cross each other. Every
 * candidate is checked (inside the table, no two tiles overlapping); a straight line
 * scaled to fit is the fallback that always passes.
 *
 * Units: the short side of a tile is 1 unit; a tile is 2 x 1. A double is placed crosswise
 * (1 along the line, 2 across). Directions are axis-aligned vectors; y grows downwards.
 *
 * This module only draws what the server says is on the table: it knows no rule.
 */

/** @typedef {{x: number, y: number}} Vec */
/** @typedef {{tile: string, inner: number, outer: number, double: boolean}} Placed */
/**
 * @typedef {object} LaidTile
 * @property {string} tile       the tile, e.g. "6-4"
 * @property {string} arm        "lead" | "left" | "right" | "up" | "down"
 * @property {number} index      position in its arm (0 = next to the centre); -1 for the lead
 * @property {number[]} values   [first, second] half values in local drawing order
 * @property {boolean} double
 * @property {boolean} spinner
 * @property {number} cx         centre x (px)
 * @property {number} cy         centre y (px)
 * @property {number} w          axis-aligned width (px)
 * @property {number} h          axis-aligned height (px)
 * @property {number} angle      degrees: the direction of the tile's local +x axis (first -> second value)
 */

export const RIGHT = Object.freeze({ x: 1, y: 0 });
export const LEFT = Object.freeze({ x: -1, y: 0 });
export const UP = Object.freeze({ x: 0, y: -1 });
export const DOWN = Object.freeze({ x: 0, y: 1 });

const EPS = 1e-6;

export const DEFAULTS = Object.freeze({
  maxUnit: 44, // px: biggest tile short side (a tile is then 88 x 44)
  minUnit: 9, // px: smallest tile the snake search tries
  straightMinUnit: 32, // px: below this a straight line turns corners instead of shrinking
  padding: 8, // px kept free around the table
  step: 0.94, // unit search step (multiplicative)
});

const add = (a, b) => ({ x: a.x + b.x, y: a.y + b.y });
const mul = (a, k) => ({ x: a.x * k, y: a.y * k });
const neg = (a) => ({ x: -a.x, y: -a.y });
const angleOf = (d) => ((Math.round((Math.atan2(d.y, d.x) * 180) / Math.PI) % 360) + 360) % 360;
const perpendicular = (d) => ({ x: -d.y, y: d.x }); // +90 degrees (clockwise on screen)

/** A tile's axis-aligned rectangle in units, from its centre, direction and size. */
function rectFor(center, dir, along, across) {
  const horizontal = dir.x !== 0;
  const hw = (horizontal ? along : across) / 2;
  const hh = (horizontal ? across : along) / 2;
  return { x1: center.x - hw, y1: center.y - hh, x2: center.x + hw, y2: center.y + hh };
}

/** Two rectangles overlap when they share area (touching edges is fine). */
export function overlaps(a, b) {
  return a.x1 < b.x2 - EPS && b.x1 < a.x2 - EPS && a.y1 < b.y2 - EPS && b.y1 < a.y2 - EPS;
}

function makeTile(placed, arm, index, center, dir, spinner) {
  const along = placed.double ? 1 : 2;
  const across = placed.double ? 2 : 1;
  const axis = placed.double ? perpendicular(dir) : dir;
  return {
    tile: placed.tile,
    arm,
    index,
    values: placed.double ? [placed.inner, placed.inner] : [placed.inner, placed.outer],
    double: !!placed.double,
    spinner,
    center,
    dir,
    across,
    angle: angleOf(axis),
    rect: rectFor(center, dir, along, across),
  };
}

/** Coordinate of a rectangle's far edge along direction d (the side it travels towards). */
function farEdge(rect, d) {
  if (d.x > 0) return rect.x2;
  if (d.x < 0) return -rect.x1;
  if (d.y > 0) return rect.y2;
  return -rect.y1;
}

/**
 * Walk one arm outwards from its attachment point.
 *
 * @param {Placed[]} tiles         the arm's tiles, centre outwards
 * @param {object} start           {p: attachment point, dir, across: across-size of the tile attached to}
 * @param {object|null} snake      null for a straight arm, else
 *   {sweep: direction rows advance in, outer: limit going outwards, inner: limit coming back}
 *   limits are "far edge" values as returned by farEdge() for the respective direction
 * @returns {{placed: object[], end: {p: Vec, dir: Vec}}}
 */
function walkArm(tiles, arm, start, snake, spinnerRef) {
  let p = start.p;
  let dir = start.dir;
  let prevAcross = start.across;
  const primary = start.dir;
  let phase = "out"; // out -> corner -> back -> corner -> out ...
  let cornerTravel = 0;
  let nextRun = "back";
  const out = [];

  const turn = (newDir) => {
    // Joint: the new tile touches the side of the previous tile's outer unit square.
    const c = add(p, mul(dir, -0.5));
    p = add(c, mul(newDir, prevAcross / 2));
    dir = newDir;
  };

  tiles.forEach((placed, index) => {
    const along = placed.double ? 1 : 2;
    const across = placed.double ? 2 : 1;
    if (snake) {
      if (phase === "corner" && cornerTravel >= 2) {
        turn(nextRun === "back" ? neg(primary) : primary);
        phase = nextRun;
        nextRun = nextRun === "back" ? "out" : "back";
      }
      if (phase !== "corner") {
        const candidate = rectFor(add(p, mul(dir, along / 2)), dir, along, across);
        const limit = phase === "out" ? snake.outer : snake.inner;
        if (farEdge(candidate, dir) > limit + EPS) {
          turn(snake.sweep);
          phase = "corner";
          cornerTravel = 0;
        }
      }
    }
    const center = add(p, mul(dir, along / 2));
    const isSpinner = !!spinnerRef && spinnerRef.arm === arm && spinnerRef.index === index;
    out.push(makeTile(placed, arm, index, center, dir, isSpinner));
    p = add(p, mul(dir, along));
    prevAcross = across;
    if (phase === "corner") cornerTravel += along;
  });
  return { placed: out, end: { p, dir } };
}

function armOf(board, name) {
  return Array.isArray(board[name]) ? board[name] : [];
}

/** The far-edge limit of a table [0,W]x[0,H] in direction d (see farEdge). */
function tableLimit(d, W, H) {
  if (d.x > 0) return W;
  if (d.x < 0) return 0;
  if (d.y > 0) return H;
  return 0;
}

/**
 * Lay out the board in units with the lead centred at `anchor`.
 * `bounds` = null: straight arms; else {W, H} in units: snake inside it.
 */
function layoutUnits(board, anchor, bounds) {
  const lead = board.lead;
  const spinnerRef = board.spinner || null;
  const leadIsSpinner = !!spinnerRef && spinnerRef.arm === "lead";
  const leadTile = makeTile(lead, "lead", -1, anchor, RIGHT, leadIsSpinner);
  const leadAlong = lead.double ? 1 : 2;
  const lateral = armOf(board, "up").length + armOf(board, "down").length > 0;

  // Where is the spinner along the main line if the arm does not turn before it?
  // (Used only for the lanes the snake keeps clear; the collision check has the last word.)
  let laneX = anchor.x;
  if (spinnerRef && spinnerRef.arm !== "lead") {
    const arm = armOf(board, spinnerRef.arm);
    let dist = leadAlong / 2;
    for (let i = 0; i < spinnerRef.index; i += 1) dist += arm[i].double ? 1 : 2;
    dist += 0.5;
    laneX = anchor.x + (spinnerRef.arm === "right" ? dist : -dist);
  }

  const snakeFor = (primary, sweep, innerLimit) => {
    if (!bounds) return null;
    const back = neg(primary);
    return {
      sweep,
      outer: tableLimit(primary, bounds.W, bounds.H),
      inner: innerLimit ?? tableLimit(back, bounds.W, bounds.H),
    };
  };
  // Return rows stop short of the spinner's lateral lane (x = laneX +- 1) when it is in use.
  const rightSnake = snakeFor(RIGHT, DOWN, lateral ? -(laneX + 1) : null);
  const leftSnake = snakeFor(LEFT, UP, lateral ? laneX - 1 : null);

  const leadAcross = lead.double ? 2 : 1;
  // A main arm walked from the lead's side that faces `dir`.
  const mainArm = (name, dir, snake) =>
    walkArm(
      armOf(board, name),
      name,
      { p: add(anchor, mul(dir, leadAlong / 2)), dir, across: leadAcross },
      snake,
      spinnerRef,
    );
  const right = mainArm("right", RIGHT, rightSnake);
  const left = mainArm("left", LEFT, leftSnake);

  const tiles = [leadTile, ...left.placed, ...right.placed];
  const ends = {
    left: left.end,
    right: right.end,
  };

  const spinner = tiles.find((t) => t.spinner);
  if (spinner) {
    // Lateral arms leave the spinner's long sides, perpendicular to its line. "up" is the
    // screen-upper (or left) side.
    let upDir = perpendicular(spinner.dir);
    if (upDir.y > 0 || (upDir.y === 0 && upDir.x > 0)) upDir = neg(upDir);
    const downDir = neg(upDir);
    const sc = spinner.center;
    const horizontalLine = spinner.dir.x !== 0;
    // Coming back towards the main line, a lateral arm's rows stop short of it (doubles on
    // the line reach 1 unit off it).
    const mainLimitUp = horizontalLine ? sc.y - 1 : null;
    const mainLimitDown = horizontalLine ? -(sc.y + 1) : null;
    const upSnake = bounds
      ? { sweep: RIGHT, outer: tableLimit(upDir, bounds.W, bounds.H), inner: mainLimitUp ?? bounds.H }
      : null;
    const downSnake = bounds
      ? { sweep: LEFT, outer: tableLimit(downDir, bounds.W, bounds.H), inner: mainLimitDown ?? 0 }
      : null;
    if (upSnake && upDir.y === 0) upSnake.sweep = DOWN;
    if (downSnake && downDir.y === 0) downSnake.sweep = UP;
    // A lateral arm walked from the spinner's long side that faces `dir`.
    const lateralArm = (name, dir, snake) =>
      walkArm(armOf(board, name), name, { p: add(sc, dir), dir, across: 1 }, snake, null);
    const up = lateralArm("up", upDir, upSnake);
    const down = lateralArm("down", downDir, downSnake);
    tiles.push(...up.placed, ...down.placed);
    ends.up = up.end;
    ends.down = down.end;
  }
  return { tiles, ends };
}

function bboxOf(tiles) {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const t of tiles) {
    x1 = Math.min(x1, t.rect.x1);
    y1 = Math.min(y1, t.rect.y1);
    x2 = Math.max(x2, t.rect.x2);
    y2 = Math.max(y2, t.rect.y2);
  }
  return { x1, y1, x2, y2, w: x2 - x1, h: y2 - y1 };
}

/** True when no two tiles share area. */
export function noOverlaps(tiles) {
  for (let i = 0; i < tiles.length; i += 1) {
    for (let j = i + 1; j < tiles.length; j += 1) {
      if (overlaps(tiles[i].rect, tiles[j].rect)) return false;
    }
  }
  return true;
}

function fitsBounds(tiles, W, H) {
  const b = bboxOf(tiles);
  return b.x1 >= -EPS && b.y1 >= -EPS && b.x2 <= W + EPS && b.y2 <= H + EPS;
}

/** Convert a unit layout into px, centring its bounding box in the viewport. */
function toPixels(result, unit, width, height, mode) {
  const b = bboxOf(result.tiles);
  const ox = (width - b.w * unit) / 2 - b.x1 * unit;
  const oy = (height - b.h * unit) / 2 - b.y1 * unit;
  const px = (v) => ({ x: ox + v.x * unit, y: oy + v.y * unit });
  const tiles = result.tiles.map((t) => {
    const c = px(t.center);
    return {
      tile: t.tile,
      arm: t.arm,
      index: t.index,
      values: t.values,
      double: t.double,
      spinner: t.spinner,
      cx: c.x,
      cy: c.y,
      w: (t.rect.x2 - t.rect.x1) * unit,
      h: (t.rect.y2 - t.rect.y1) * unit,
      angle: t.angle,
    };
  });
  const ends = {};
  for (const [name, e] of Object.entries(result.ends)) {
    // The exposed unit square of the end (the outer half of the last tile), and the point
    // one unit further out where the next tile would start.
    const square = px(add(e.p, mul(e.dir, -0.5)));
    const beyond = px(add(e.p, mul(e.dir, 0.5)));
    ends[name] = { x: square.x, y: square.y, ox: beyond.x, oy: beyond.y, dx: e.dir.x, dy: e.dir.y };
  }
  return {
    mode,
    unit,
    width,
    height,
    tiles,
    ends,
    bbox: { x: ox + b.x1 * unit, y: oy + b.y1 * unit, w: b.w * unit, h: b.h * unit },
  };
}

/**
 * Lay out a board view so that it fits a `width` x `height` px viewport.
 *
 * @param {object|null} board  the view's `board` (lead, left, right, up, down, spinner, ...)
 * @param {{width: number, height: number}} size
 * @param {Partial<typeof DEFAULTS>} [options]
 * @returns {{mode: "empty"|"straight"|"snake", unit: number, tiles: LaidTile[],
 *           ends: Record<string, {x:number,y:number,ox:number,oy:number,dx:number,dy:number}>,
 *           bbox: {x:number,y:number,w:number,h:number}, width: number, height: number}}
 */
export function layoutBoard(board, size, options = {}) {
  const o = { ...DEFAULTS, ...options };
  const width = Math.max(0, size.width);
  const height = Math.max(0, size.height);
  if (!board || !board.lead) {
    return { mode: "empty", unit: o.maxUnit, tiles: [], ends: {}, bbox: { x: 0, y: 0, w: 0, h: 0 }, width, height };
  }
  const innerW = Math.max(1, width - 2 * o.padding);
  const innerH = Math.max(1, height - 2 * o.padding);

  const straight = layoutUnits(board, { x: 0, y: 0 }, null);
  const sb = bboxOf(straight.tiles);
  const straightUnit = Math.min(o.maxUnit, innerW / sb.w, innerH / sb.h);
  if (straightUnit >= o.straightMinUnit) {
    return toPixels(straight, straightUnit, width, height, "straight");
  }

  // Turn corners: the biggest unit at which a snake fits, trying a few lead positions.
  const fractions = [
    [0.5, 0.5],
    [0.5, 0.35],
    [0.5, 0.65],
    [0.35, 0.5],
    [0.65, 0.5],
    [0.35, 0.35],
    [0.65, 0.65],
    [0.35, 0.65],
    [0.65, 0.35],
  ];
  for (let unit = o.maxUnit; unit > Math.max(straightUnit, o.minUnit); unit *= o.step) {
    const W = innerW / unit;
    const H = innerH / unit;
    for (const [fx, fy] of fractions) {
      const snake = layoutUnits(board, { x: W * fx, y: H * fy }, { W, H });
      if (fitsBounds(snake.tiles, W, H) && noOverlaps(snake.tiles)) {
        return toPixels(snake, unit, width, height, "snake");
      }
    }
  }
  return toPixels(straight, straightUnit, width, height, "straight");
}

/**
 * Pip positions (in a unit square centred on 0,0) for a half showing `n` (0..6).
 * Used by the SVG renderer and the hand; kept here because it is pure data.
 */
export function pipPositions(n) {
  const a = 0.26;
  const corners = { tl: [-a, -a], tr: [a, -a], bl: [-a, a], br: [a, a] };
  const mid = { ml: [-a, 0], mr: [a, 0], c: [0, 0] };
  switch (n) {
    case 1:
      return [mid.c];
    case 2:
      return [corners.tr, corners.bl];
    case 3:
      return [corners.tr, mid.c, corners.bl];
    case 4:
      return [corners.tl, corners.tr, corners.bl, corners.br];
    case 5:
      return [corners.tl, corners.tr, mid.c, corners.bl, corners.br];
    case 6:
      return [corners.tl, corners.tr, mid.ml, mid.mr, corners.bl, corners.br];
    default:
      return [];
  }
}
