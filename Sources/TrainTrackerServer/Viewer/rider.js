// The rider's view: what the phone shows, big and at a glance, like the train's door display
// and the Dynamic Island: the line, where the train goes, Next / Soon / Now and the station,
// the next stop with its arrival time, the train type, the arrivals at the stops ahead with
// their intervals (the rider's own stop first, once named by a click); muted when estimated
// or unsure.

import { h, $, safeColour, prettyID, formatTime } from "./dom.js";
import { railway, railwayName, stationName, terminalOf } from "./api.js";

// Below this confidence the answer is shown as unsure.
export const UNSURE_CONFIDENCE = 0.6;

const phaseLabel = { next: "Next", soon: "Soon", now: "Now" };

// Letters alone, in lower case: "Kita-ayase" and "KitaAyase" are one name.
const plain = (text) => String(text).toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

// "Inbound → Shibuya", "→ Kita-ayase" when the direction is named after its terminus, or the
// direction alone on a loop.
export function directionLabel(railwayID, direction) {
  const terminal = terminalOf(railwayID, direction);
  if (!terminal) return prettyID(direction);
  return plain(prettyID(direction)) === plain(terminal.name) ? `→ ${terminal.name}` : `${prettyID(direction)} → ${terminal.name}`;
}

// "Train 102 · 4 min late": the scheduled train the tracker believes, and its delay, when it
// names one (text only: the name comes from a feed).
export function trainText(result) {
  if (!result || typeof result.train !== "string" || result.train === "") return null;
  let text = `Train ${result.train}`;
  const delay = result.delaySeconds;
  if (typeof delay === "number" && Number.isFinite(delay)) {
    const minutes = Math.round(delay / 60);
    text += minutes > 0 ? ` · ${minutes} min late` : minutes < 0 ? ` · ${-minutes} min early` : " · on time";
  }
  // Where the delay came from (live answers say): the phone's own fixes, the operator's feed, other riders.
  const source = { "own fixes": "by its own fixes", operator: "by the operator's feed", "other riders": "by other riders" }[result.delaySource];
  if (source) text += ` (${source})`;
  return text;
}

// How many stops ahead the view lists, besides the rider's own.
export const STOPS_SHOWN = 4;

// The stop the rider named (a click on a stop ahead), for this page; null: none.
let destination = null;
// What the view last showed, to show again when the rider names a stop.
let shown = null;

// "Millbrae 17:42 (17:41–17:44)": a predicted arrival, with its interval when that spans more
// than its minute (text only: the names come from the data).
export function arrivalText(arrival) {
  const time = formatTime(arrival.time, false);
  const from = formatTime(arrival.earliest, false);
  const to = formatTime(arrival.latest, false);
  return `${stationName(arrival.station)} ${time}` + (from !== time || to !== time ? ` (${from}–${to})` : "");
}

// The arrivals at the stops ahead: the rider's own first ("Your stop"), then the next few;
// a click names a stop as the rider's own.
function stopsAhead(result) {
  const arrivals = (Array.isArray(result.arrivals) ? result.arrivals : [])
    .filter((arrival) => arrival && typeof arrival.station === "string" && typeof arrival.time === "string");
  if (!arrivals.length) return null;
  const mine = arrivals.find((arrival) => arrival.station === destination);
  const item = (arrival) => h("li", {
    className: arrival === mine ? "rider-stop mine" : "rider-stop",
    dataset: { station: arrival.station },
    title: "Click: this is my stop",
    onclick: () => { destination = arrival.station; if (shown) showRider(...shown); },
  }, arrival === mine ? "Your stop: " : "", arrivalText(arrival));
  const others = arrivals.filter((arrival) => arrival !== mine).slice(0, STOPS_SHOWN);
  return h("ol", { className: "rider-stops" }, mine ? item(mine) : null, others.map(item));
}

// While the stops have not told the services sharing the track apart: those still possible,
// with their shares; where they part next, the station shown is a station, not a known stop.
function undecidedLine(result) {
  const services = (Array.isArray(result.undecided) ? result.undecided : [])
    .filter((service) => service && typeof service.railway === "string"
      && typeof service.share === "number" && Number.isFinite(service.share));
  if (services.length < 2) return null;
  const names = services.map((service) => {
    const type = typeof service.trainType === "string" ? ` ${prettyID(service.trainType)}` : "";
    const toward = typeof service.direction === "string" ? ` ${directionLabel(service.railway, service.direction)}` : "";
    const share = Math.round(Math.min(Math.max(service.share, 0), 1) * 100);
    return `${railwayName(service.railway)}${toward}${type} ${share} %`;
  });
  // Where they part: each one's next stop, by name, once (the station shown is not one).
  const stops = [...new Set(services.map((service) =>
    typeof service.nextStop === "string" ? stationName(service.nextStop) : "no further stop"))];
  const parting = !result.nextStop
    ? h("div", { className: "rider-parting" }, `Next stop not known yet: ${stops.join(" or ")}`)
    : null;
  return h("div", { className: "rider-undecided" }, h("div", {}, "Not yet told apart: " + names.join(" · ")), parting);
}

function trainLine(result) {
  const text = trainText(result);
  return text ? h("div", { className: "rider-train" }, text) : null;
}

// Shows `result` (the answer at `fix`) in the rider's view; a hint without an answer.
// `sinceFix` (seconds) says how long the phone has given no fix, for an estimated answer.
export function showRider(result, fix, sinceFix = null) {
  const panel = $("rider");
  shown = [result, fix, sinceFix];
  if (!result || !result.railway) {
    panel.className = "rider empty";
    panel.replaceChildren(h("div", { className: "rider-hint" }, fix ? "Looking for the train…" : "Pick a session"));
    return;
  }
  const line = railway(result.railway);
  const terminal = terminalOf(result.railway, result.direction);
  const unsure = result.confidence != null && result.confidence < UNSURE_CONFIDENCE;
  panel.className = "rider" + (result.estimated || unsure ? " muted" : "");
  const chip = h("span", { className: "rider-chip", style: { background: safeColour(line && line.color) } });
  // At a station, the next stop is that station: said once, by "Now".
  const arriving = result.phase === "now" && result.nextStop === result.station;
  const nextStop = result.nextStop && !arriving
    ? h("div", { className: "rider-next" }, "Next stop ", h("strong", {}, stationName(result.nextStop)),
      result.eta ? ` · ${formatTime(result.eta, false)}` : "")
    : null;
  const notes = [];
  if (result.estimated) {
    notes.push(sinceFix != null ? `Estimated: no fix for ${Math.round(sinceFix)} s (tunnel or gap)` : "Estimated: no fix just now (tunnel or gap)");
  }
  if (unsure) notes.push(`Unsure: ${(result.confidence * 100).toFixed(0)} % sure of this line`);
  const parts = [
    h("div", { className: "rider-line" }, chip, h("span", { className: "rider-name" }, railwayName(result.railway)),
      h("span", { className: "rider-toward" }, terminal ? `→ ${terminal.name}` : prettyID(result.direction)),
      result.trainType ? h("span", { className: "rider-type" }, prettyID(result.trainType)) : null),
    h("div", { className: "rider-focus" },
      h("span", { className: `rider-phase phase ${result.phase}` }, phaseLabel[result.phase] || result.phase),
      h("span", { className: "rider-station" }, stationName(result.station))),
    trainLine(result),
    undecidedLine(result),
    nextStop,
    stopsAhead(result),
    notes.length ? h("div", { className: "rider-note" }, notes.join(" · ")) : null];
  panel.replaceChildren(...parts.filter(Boolean));
}
