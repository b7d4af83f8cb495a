/**
 * The review page: a finished game's review (games/review/page.py) arrives once with the
 * page and is drawn here: the win-chance graph (an SVG scaled to the page's width), the
 * list of graded decisions with a filter for one player's mistakes, and "learn from your
 * mistakes", which shows the signed-in player each mistake as they saw it and tells them
 * whether a new choice is as good as the best. Words come from the JavaScript catalogue.
 */
import { BoardView, tileSvg, tileText } from "./game/board.js";

const fmt = (text, values) => interpolate(text, values, true);
const NS = "http://www.w3.org/2000/svg";
const data = JSON.parse(document.getElementById("review-data")?.textContent || "{}");
const names = data.names || [];
const decisions = data.decisions || [];
const byStep = new Map(decisions.map((d) => [d.step, d]));

function gradeText(grade) {
  switch (grade) {
    case "inaccuracy":
      return gettext("inaccuracy");
    case "mistake":
      return gettext("mistake");
    case "blunder":
      return gettext("blunder");
    default:
      return gettext("good");
  }
}

function svg(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent?.appendChild(node);
  return node;
}

// One decimal in the page's language ("35,1" in Spanish), as the server writes its figures.
const decimal = new Intl.NumberFormat(document.documentElement.lang || undefined, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  useGrouping: false,
});
const percent = (chance) => `${decimal.format(100 * chance)} %`;

/** The graph: the perspective seat's chance after each graded decision, marks on the graded mistakes. */
function drawGraph() {
  const graph = document.getElementById("review-graph");
  if (!graph) return;
  const curve = data.curve || [];
  const width = 600;
  const height = 200;
  const pad = 8;
  graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
  graph.replaceChildren();
  svg("rect", { x: 0, y: 0, width, height, class: "review__graph-bg" }, graph);
  svg("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "review__graph-mid" }, graph);
  if (!curve.length) return;
  const x = (i) => pad + ((width - 2 * pad) * i) / Math.max(1, curve.length - 1);
  // The curve is seat 0's chance; the graph shows the perspective seat's.
  const mine = (c) => (data.perspective === 1 ? 1 - c : c);
  const y = (c) => pad + (height - 2 * pad) * (1 - mine(c));
  const points = curve.map(([, c], i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`);
  const bottom = height - pad;
  svg("polygon", { points: `${x(0)},${bottom} ${points.join(" ")} ${x(curve.length - 1)},${bottom}`, class: "review__graph-area" }, graph);
  svg("polyline", { points: points.join(" "), class: "review__graph-line" }, graph);
  // With links on its marks the graph is a group of controls, no longer a picture (axe).
  let marked = false;
  curve.forEach(([step, c], i) => {
    const d = byStep.get(step);
    if (!d || d.grade === "good") return;
    const link = svg("a", { href: `#d-${step}`, class: `review__mark review__mark--${d.grade}` }, graph);
    const title = svg("title", {}, link);
    title.textContent = `${names[d.seat]}: ${gradeText(d.grade)} — ${d.played_text}`;
    svg("circle", { cx: x(i).toFixed(1), cy: y(c).toFixed(1), r: d.grade === "blunder" ? 7 : 5 }, link);
    marked = true;
  });
  graph.setAttribute("role", marked ? "group" : "img");
}

function optionList(d) {
  const list = document.createElement("ul");
  list.className = "review__option-list";
  d.options.forEach((o, i) => {
    const li = document.createElement("li");
    if (i === d.chosen) li.className = "review__option--chosen";
    li.textContent = fmt(gettext("%(action)s: win chance %(c)s, %(p)s points"), {
      action: o.text,
      c: percent(o.chance),
      p: decimal.format(o.points),
    });
    list.appendChild(li);
  });
  return list;
}

function drawList() {
  const list = document.getElementById("review-list");
  const filter = document.getElementById("review-filter");
  if (!list) return;
  const seat = filter?.value ?? "all";
  list.replaceChildren();
  for (const d of decisions) {
    if (seat !== "all" && (String(d.seat) !== seat || d.grade === "good")) continue;
    const li = document.createElement("li");
    li.id = `d-${d.step}`;
    li.className = `review__item review__item--${d.grade}`;
    li.dataset.seat = d.seat;
    li.dataset.grade = d.grade;
    const head = document.createElement("p");
    head.className = "review__item-head";
    head.textContent = `${names[d.seat]} ${d.played_text}`;
    const mark = document.createElement("span");
    mark.className = "review__grade";
    mark.textContent = gradeText(d.grade);
    head.append(" ", mark);
    li.appendChild(head);
    if (d.grade !== "good" && d.sentence) {
      const p = document.createElement("p");
      p.className = "review__sentence";
      p.textContent = d.sentence;
      li.append(p, optionList(d));
    }
    list.appendChild(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = gettext("No mistakes.");
    list.appendChild(li);
  }
}

/** A change of win chance as the page writes it: "+3.5 %", "−1.0 %". */
function signedChance(value) {
  const sign = value >= 0 ? "+" : "−";
  return `${sign}${percent(Math.abs(value))}`;
}

function drawLuck() {
  for (const el of document.querySelectorAll(".review__luck")) {
    const luck = signedChance(Number(el.dataset.luck || 0));
    const { luckDeals, luckDraws } = el.dataset;
    el.textContent = luckDeals && luckDraws
      ? fmt(gettext("Luck: %(l)s win chance (deals %(d)s, draws %(w)s)"), {
          l: luck, d: signedChance(Number(luckDeals)), w: signedChance(Number(luckDraws)),
        })
      : fmt(gettext("Luck: %(l)s win chance"), { l: luck });
  }
}

/** "Learn from your mistakes": one of the player's mistakes at a time, chosen again. */
class Learn {
  constructor(root, steps) {
    this.root = root;
    this.steps = steps;
    this.index = 0;
    this.board = new BoardView(document.getElementById("review-learn-board"));
    root.querySelector("[data-learn=back]").addEventListener("click", () => this.go(-1));
    root.querySelector("[data-learn=next]").addEventListener("click", () => this.go(1));
    // One mistake: nowhere to step to, so no buttons that could only ever be disabled.
    root.querySelector(".review__learn-nav").hidden = steps.length < 2;
    root.hidden = false;
    this.show();
  }

  go(delta) {
    this.index = Math.min(this.steps.length - 1, Math.max(0, this.index + delta));
    this.show();
  }

  show() {
    const d = byStep.get(this.steps[this.index]);
    const seen = d.seen || {};
    const where = document.getElementById("review-learn-where");
    const facts = [
      fmt(gettext("Mistake %(n)s of %(total)s"), { n: this.index + 1, total: this.steps.length }),
      fmt(gettext("round %(r)s"), { r: d.round }),
    ];
    if (seen.balances) {
      const mine = seen.balances[d.seat];
      facts.push(fmt(gettext("your balance %(mine)s, your opponent's %(theirs)s"), { mine, theirs: seen.balances[1 - d.seat] }));
    }
    if (seen.auction?.bid) facts.push(fmt(gettext("standing bid %(n)s"), { n: seen.auction.bid }));
    where.textContent = facts.join(" · ");
    this.board.update(seen.board || { lead: null, left: [], right: [], up: [], down: [], ends: [] });
    const hand = document.getElementById("review-learn-hand");
    hand.replaceChildren();
    const tiles = seen.hand || [];
    hand.setAttribute("role", "img");
    hand.setAttribute("aria-label", fmt(gettext("Your hand: %(tiles)s"), { tiles: tiles.map(tileText).join(" ") }));
    for (const tile of tiles) hand.append(tileSvg(tile, { size: 22 }));
    const options = document.getElementById("review-learn-options");
    options.replaceChildren();
    // In the order of their words (a bid's amounts as numbers), never best first: no hint in the order.
    const order = [...d.options].sort((a, b) => a.choice.localeCompare(b.choice, undefined, { numeric: true }));
    for (const option of order) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button";
      b.textContent = option.choice;
      b.addEventListener("click", () => this.answer(d, option));
      options.appendChild(b);
    }
    document.getElementById("review-learn-answer").textContent = "";
    this.root.querySelector("[data-learn=back]").disabled = this.index === 0;
    this.root.querySelector("[data-learn=next]").disabled = this.index >= this.steps.length - 1;
  }

  answer(d, option) {
    const best = d.options[0];
    const loss = best.chance - option.chance;
    const out = document.getElementById("review-learn-answer");
    if (loss < (data.thresholds?.inaccuracy ?? 0.04)) {
      out.className = "review__answer review__answer--good";
      out.textContent = fmt(gettext("As good as the best: %(action)s keeps a win chance of %(c)s."), {
        action: option.choice,
        c: percent(option.chance),
      });
    } else {
      out.className = "review__answer review__answer--bad";
      out.textContent = fmt(gettext("Not yet: %(best)s was better by %(loss)s of win chance (%(c)s against %(o)s)."), {
        best: best.choice,
        loss: percent(loss),
        c: percent(best.chance),
        o: percent(option.chance),
      });
    }
  }
}

drawGraph();
drawList();
drawLuck();
document.getElementById("review-filter")?.addEventListener("change", drawList);
const learnRoot = document.getElementById("review-learn");
if (learnRoot && data.learn?.length) new Learn(learnRoot, data.learn);
window.__review = { data };
