// Why this answer: the leading candidates' scores over the ride, in nats behind the leader,
// with the selected fix marked. A click on the chart selects the fix under it.

import { s, h, $, safeColour } from "./dom.js";
import { state, railway, railwayName } from "./api.js";
import { directionLabel } from "./rider.js";

// The chart shows the candidates most often among the top three, at most this many.
const SERIES = 5;
// Scores further behind than this many nats are drawn at the bottom; the scale is a square
// root, so a close race near 0 stays readable beside a candidate far behind.
const FLOOR_NATS = -30;
const [WIDTH, HEIGHT, LEFT, BOTTOM] = [360, 150, 30, 16];

export const SCORE_HELP = "Score: how much less likely than the likeliest candidate, in nats (natural-log units). "
  + "0 is the likeliest; −1 is 2.7 times less likely, −2.3 ten times, −4.6 a hundred times. "
  + "While the train stands, the answer shown first keeps its line even if another scores higher for a moment.";

const key = (candidate) => `${candidate.railway}\u0001${candidate.direction}`;

// The candidates most often in the top three over the whole ride.
function leadingKeys() {
  const counts = new Map();
  for (const result of state.results) {
    for (const candidate of (result.candidates || []).slice(0, 3)) counts.set(key(candidate), (counts.get(key(candidate)) || 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, SERIES).map(([item]) => item);
}

// Draws the chart into #score-chart; `onPick(index)` is called with the fix clicked.
export function drawChart(onPick) {
  const holder = $("score-chart");
  const count = state.results.length;
  if (count < 2) { holder.replaceChildren(h("p", { className: "hint" }, "Scores appear once the ride has fixes.")); return; }
  const keys = leadingKeys();
  const x = (index) => LEFT + (index / (count - 1)) * (WIDTH - LEFT - 4);
  const y = (score) => 4 + Math.sqrt(Math.min(0, Math.max(FLOOR_NATS, score)) / FLOOR_NATS) * (HEIGHT - BOTTOM - 8);
  const paths = keys.map((item, rank) => {
    let d = "";
    let drawing = false;
    state.results.forEach((result, index) => {
      const candidate = (result.candidates || []).find((entry) => key(entry) === item);
      if (!candidate) { drawing = false; return; }
      d += `${drawing ? "L" : "M"}${x(index).toFixed(1)},${y(Number(candidate.score)).toFixed(1)}`;
      drawing = true;
    });
    const [railwayID, direction] = item.split("\u0001");
    const colour = safeColour(railway(railwayID) && railway(railwayID).color);
    return s("path", { d, fill: "none", stroke: colour, "stroke-width": rank === 0 ? 2 : 1.5,
      "stroke-dasharray": rank % 2 ? "4 2" : null, class: "series", "data-key": item },
      s("title", {}, `${railwayName(railwayID)} · ${directionLabel(railwayID, direction)}`));
  });
  const grid = [0, -1, -3, -10, -20, -30].map((nats) => [
    s("line", { x1: LEFT, x2: WIDTH - 4, y1: y(nats), y2: y(nats), class: "grid" }),
    s("text", { x: LEFT - 4, y: y(nats) + 3, "text-anchor": "end", class: "axis" }, String(nats)),
  ]);
  const marker = s("line", { id: "chart-marker", x1: 0, x2: 0, y1: 2, y2: HEIGHT - BOTTOM, class: "marker" });
  const svg = s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart", role: "img" },
    s("title", {}, SCORE_HELP), grid, paths, marker,
    s("text", { x: LEFT, y: HEIGHT - 3, class: "axis" }, "ride start"),
    s("text", { x: WIDTH - 4, y: HEIGHT - 3, "text-anchor": "end", class: "axis" }, "end"));
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * WIDTH;
    onPick(Math.max(0, Math.min(count - 1, Math.round(((at - LEFT) / (WIDTH - LEFT - 4)) * (count - 1)))));
  });
  const legend = h("ul", { className: "chart-legend" }, keys.map((item, rank) => {
    const [railwayID, direction] = item.split("\u0001");
    return h("li", {}, h("span", { className: "chip" + (rank % 2 ? " dashed" : ""),
      style: { background: safeColour(railway(railwayID) && railway(railwayID).color) } }),
    `${railwayName(railwayID)} · ${directionLabel(railwayID, direction)}`);
  }));
  holder.replaceChildren(svg, legend);
  markChart();
}

// Moves the chart's marker to the selected fix.
export function markChart() {
  const marker = document.getElementById("chart-marker");
  const count = state.results.length;
  if (!marker || count < 2 || state.selected < 0) return;
  const at = LEFT + (state.selected / (count - 1)) * (WIDTH - LEFT - 4);
  marker.setAttribute("x1", at.toFixed(1));
  marker.setAttribute("x2", at.toFixed(1));
}
