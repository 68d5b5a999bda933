// The rider's view: what the phone shows, big and at a glance, like the train's door display
// and the Dynamic Island: the line, where the train goes, Next / Soon / Now and the station,
// the next stop with its arrival time, the train type; muted when estimated or unsure.

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

function trainLine(result) {
  const text = trainText(result);
  return text ? h("div", { className: "rider-train" }, text) : null;
}

// Shows `result` (the answer at `fix`) in the rider's view; a hint without an answer.
// `sinceFix` (seconds) says how long the phone has given no fix, for an estimated answer.
export function showRider(result, fix, sinceFix = null) {
  const panel = $("rider");
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
    nextStop,
    notes.length ? h("div", { className: "rider-note" }, notes.join(" · ")) : null];
  panel.replaceChildren(...parts.filter(Boolean));
}
