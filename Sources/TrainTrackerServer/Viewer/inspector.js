// The inspector: the answer at the selected fix, the candidates with what each kind of
// evidence added at that fix, and the station story of the line in the direction of travel.

import { h, $, safeColour, prettyID, formatTime, formatDuration, colours } from "./dom.js";
import { state, railway, railwayName, stationName, stationsInTravelOrder } from "./api.js";
import { directionLabel } from "./rider.js";
import { storyOf } from "./story.js";
import { SCORE_HELP } from "./chart.js";
import { drawStory } from "./map.js";

// A term that moved a candidate by less than this (nats) is not worth a word.
const WHY_SHOWN_NATS = 0.05;

// The candidates shown in full, with why; the others in one line.
const SHOWN_CANDIDATES = 4;

const statusText = {
  visited: "visited", passed: "passed", "passed unseen": "passed (no fix had it in focus)", here: "the train is here",
  departed: "departed (the ride began here)", "not reached": "not reached on this ride",
};

// The answer's facts and the candidates at `index`.
export function showAnswer(index, handlers) {
  const result = state.results[index];
  const fix = state.fixes[index];
  const answer = $("answer");
  if (!result || !result.railway) {
    answer.replaceChildren(h("p", { className: "hint" }, fix ? `No answer yet at fix ${fix.id}.` : "Pick a session, then a fix."));
    $("candidates").querySelector("tbody").replaceChildren();
    $("stations").replaceChildren();
    $("station-detail").replaceChildren();
    return;
  }
  const facts = [
    ["Fix", `${index + 1} of ${state.fixes.length} · ${fix.id}`],
    ["Direction", directionLabel(result.railway, result.direction)],
    ["Train type", result.trainType ? prettyID(result.trainType) : "–"],
    ["Next stop", result.nextStop ? `${stationName(result.nextStop)}${result.eta ? " at " + formatTime(result.eta, false) : ""}` : "–"],
    ["Confidence", result.confidence != null ? (result.confidence * 100).toFixed(0) + " %" : "–"],
    ["Estimated", result.estimated ? "yes (no fix)" : "no"],
  ];
  answer.replaceChildren(h("dl", {}, facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])));
  showCandidates(result);
  showStations(result, handlers);
}

function showCandidates(result) {
  // What each kind of evidence added at this fix, per railway and direction (text only).
  const evidence = new Map((Array.isArray(result.evidence) ? result.evidence : [])
    .map((item) => [`${item.railway}\u0001${item.direction}`, item.terms || {}]));
  const why = (candidate) => Object.entries(evidence.get(`${candidate.railway}\u0001${candidate.direction}`) || {})
    .filter(([, nats]) => Math.abs(Number(nats)) >= WHY_SHOWN_NATS)
    .map(([term, nats]) => `${term} ${Number(nats) >= 0 ? "+" : ""}${Number(nats).toFixed(2)}`).join(" · ");
  const rows = (result.candidates || []).slice(0, SHOWN_CANDIDATES).flatMap((candidate, rank) => {
    const line = railway(candidate.railway);
    const row = h("tr", {},
      h("td", {}, rank + 1),
      h("td", {}, h("span", { className: "chip", style: { background: safeColour(line && line.color) } }), railwayName(candidate.railway),
        h("div", { className: "sub" }, directionLabel(candidate.railway, candidate.direction))),
      h("td", {}, stationName(candidate.station), " ", h("span", { className: `phase ${candidate.phase}` }, candidate.phase)),
      h("td", { className: "score", title: SCORE_HELP }, Number(candidate.score).toFixed(2)));
    const text = why(candidate);
    return text ? [row, h("tr", { className: "why-row" }, h("td", {}), h("td", { className: "why", colSpan: 3 }, text))] : [row];
  });
  const more = (result.candidates || []).length - SHOWN_CANDIDATES;
  if (more > 0) {
    rows.push(h("tr", { className: "more" }, h("td", {}), h("td", { colSpan: 3, className: "hint" },
      `and ${more} more, further behind: ` + result.candidates.slice(SHOWN_CANDIDATES)
        .map((candidate) => `${railwayName(candidate.railway)} ${Number(candidate.score).toFixed(1)}`).join(" · "))));
  }
  $("candidates").querySelector("tbody").replaceChildren(...rows);
}

// The line's stations in travel order; on a loop, starting from where the ride first had
// one of them in focus, so a ride past the list's first station reads in one piece.
function rideOrder(railwayID, direction) {
  let stations = stationsInTravelOrder(railwayID, direction);
  const line = railway(railwayID);
  if (!line || !line.isLoop) return stations;
  // A loop's list may close on its first station: each station once.
  if (stations.length > 1 && stations[0].id === stations[stations.length - 1].id) stations = stations.slice(0, -1);
  const first = state.results.find((item) => item && item.railway === railwayID && item.direction === direction);
  const start = first ? stations.findIndex((station) => station.id === first.station) : -1;
  if (start <= 0) return stations;
  // The station before the first focus is where a ride that began at a station left from.
  const from = (start - 1 + stations.length) % stations.length;
  return stations.slice(from).concat(stations.slice(0, from));
}

// The story of the answer's line in its direction: each station's phases with times.
function showStations(result, handlers) {
  const stations = rideOrder(result.railway, result.direction);
  // The story so far: up to the selected fix, as the rider lived it.
  const story = storyOf(result.railway, result.direction, stations, state.selected);
  state.story = story;
  const items = story.map((entry) => {
    const focus = entry.station.id === result.station;
    const events = entry.events.map((event) => h("button", {
      className: `event ${event.phase}`, type: "button", title: `Go to the fix of this ${event.phase}`,
      onclick: (click) => { click.stopPropagation(); handlers.select(event.index); },
    }, `${event.phase} ${formatTime(event.time)}`));
    const dwell = entry.dwell > 0 && entry.status !== "not reached" ? ` · stood ${formatDuration(entry.dwell)}` : "";
    const item = h("li", { className: `story ${entry.status.replace(" ", "-")}${focus ? " focus" : ""}`, dataset: { station: entry.station.id } },
      h("span", { className: "name" }, entry.station.name),
      focus ? h("span", { className: `phase ${result.phase}` }, result.phase) : null,
      h("span", { className: "status" }, statusText[entry.status] + dwell), h("div", { className: "events" }, events));
    item.addEventListener("click", () => handlers.station(entry.station.id));
    return item;
  });
  $("stations").replaceChildren(...items);
  // The focus station in view inside the list's own box.
  const focusItem = items.find((item) => item.classList.contains("focus"));
  if (focusItem) {
    const box = $("stations");
    box.scrollTop = Math.max(0, focusItem.offsetTop - box.clientHeight / 2);
  }
  const wanted = state.focusStation || result.station;
  showStation(wanted, handlers);
}

// One station's story in the detail box, its fixes circled on the map.
export function showStation(id, handlers) {
  const entry = (state.story || []).find((item) => item.station.id === id);
  for (const item of $("stations").children) item.classList.toggle("picked", item.dataset.station === id);
  drawStory(entry, handlers.select);
  if (!entry) {
    $("station-detail").replaceChildren(h("h3", {}, stationName(id)), h("p", { className: "hint" }, "Not on the line of the selected answer."));
    return;
  }
  const rows = entry.events.map((event) => h("tr", {},
    h("td", {}, h("span", { className: "swatch", style: { background: colours[event.phase] } }), event.phase),
    h("td", {}, formatTime(event.time)), h("td", {}, `fix ${event.index + 1}`)));
  $("station-detail").replaceChildren(...[
    h("h3", {}, entry.station.name),
    h("p", { className: "status-line" }, statusText[entry.status],
      entry.dwell > 0 ? ` · stood ${formatDuration(entry.dwell)}` : ""),
    rows.length ? h("table", { className: "story-table" }, h("tbody", {}, rows))
      : h("p", { className: "hint" }, "No fix so far had it in focus."),
    rows.length ? h("p", { className: "hint" }, "The fixes that decided each phase are circled on the map.") : null,
  ].filter(Boolean));
}
