// The profile's rating chart: the rating and date of the game under the pointer or the
// finger, read from the points the server drew (their <title>), shown beside the chart and
// marked on it; the last game's until then.
for (const chart of document.querySelectorAll(".rating-chart")) {
  const svg = chart.querySelector("svg");
  const readout = chart.querySelector(".rating-chart__readout");
  const points = [...chart.querySelectorAll(".rating-chart__point")];
  if (!svg || !readout || !points.length) continue;
  const show = (point) => {
    for (const p of points) p.classList.toggle("rating-chart__point--active", p === point);
    readout.textContent = point.querySelector("title")?.textContent ?? "";
  };
  const nearest = (event) => {
    const box = svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * svg.viewBox.baseVal.width;
    return points.reduce((best, p) => (Math.abs(p.cx.baseVal.value - x) < Math.abs(best.cx.baseVal.value - x) ? p : best));
  };
  svg.addEventListener("pointermove", (event) => show(nearest(event)));
  svg.addEventListener("pointerdown", (event) => show(nearest(event)));
  show(points[points.length - 1]);
}
