// The station story: for every station of a line, in the direction of travel, what the ride
// did there (the talk's per-station phases): approaching (the focus said "Soon"), visiting
// ("Now"), departure (the focus moved on), and at the end visited (the train stood there) or
// passed (it went through); stations the ride never reached are said to be so.

import { state } from "./api.js";

// A station is visited when the train stood still there at least this long, in seconds
// (the talk's "visited vs passed: stopped > 20 s").
export const VISITED_DWELL_SECONDS = 20;
// Slower than this, in metres per second, a train stands.
const STANDING_SPEED = 1.5;

const time = (fix) => Date.parse(fix.timestamp);

// Metres between two fixes (equirectangular: fine over a few hundred metres).
function metres(a, b) {
  const y = (b.latitude - a.latitude) * 111320;
  const x = (b.longitude - a.longitude) * 111320 * Math.cos(a.latitude * Math.PI / 180);
  return Math.hypot(x, y);
}

// Seconds the train stood between fix `a` and the next fix `b`: by the reported speed, or by
// the distance between them when a phone gives none.
function standing(a, b) {
  const seconds = (time(b) - time(a)) / 1000;
  if (!(seconds > 0)) return 0;
  const speed = a.speed != null && a.speed >= 0 ? a.speed : metres(a, b) / seconds;
  return speed <= STANDING_SPEED ? seconds : 0;
}

// The story of `stations` (in travel order) from the fixes whose best answer was on
// `railwayID` going `direction`. Each entry: { station, status, events: [{ phase, index, time }],
// dwell } with status "visited", "passed", "passed unseen" (the focus jumped over it), "here"
// (the ride is there at its last fix), "departed" (the ride began there) or "not reached"
// (before the ride began, or after it ended: its next station included).
export function storyOf(railwayID, direction, stations, upTo = state.fixes.length - 1) {
  const order = new Map(stations.map((station, index) => [station.id, index]));
  const seen = new Map();
  let last = null;
  for (let index = 0; index <= upTo && index < state.results.length; index++) {
    const result = state.results[index];
    if (!result || result.railway !== railwayID || result.direction !== direction || !order.has(result.station)) continue;
    let entry = seen.get(result.station);
    if (!entry) { entry = { first: index, approaching: null, visiting: null, lastNow: null, dwell: 0, left: null }; seen.set(result.station, entry); }
    if (last && last.id !== result.station && last.entry.lastNow != null && last.entry.left == null) last.entry.left = index;
    if (result.phase === "soon" && entry.approaching == null) entry.approaching = index;
    if (result.phase === "now") {
      if (entry.visiting == null) entry.visiting = index;
      if (entry.lastNow != null && entry.lastNow === index - 1) entry.dwell += standing(state.fixes[index - 1], state.fixes[index]);
      entry.lastNow = index;
    }
    last = { id: result.station, entry };
  }
  const reached = [...seen.keys()].map((id) => order.get(id));
  const [lowest, highest] = reached.length ? [Math.min(...reached), Math.max(...reached)] : [Infinity, -Infinity];
  return stations.map((station, position) => {
    const entry = seen.get(station.id);
    if (!entry) {
      const status = position > lowest && position < highest ? "passed unseen" : "not reached";
      return { station, status, events: [], dwell: 0 };
    }
    const events = [];
    const add = (phase, index) => { if (index != null) events.push({ phase, index, time: state.fixes[index].timestamp }); };
    add("approaching", entry.approaching);
    add("visiting", entry.visiting);
    add("departure", entry.left);
    events.sort((a, b) => a.index - b.index);
    let status;
    if (entry.visiting == null) status = last && last.id === station.id ? "not reached" : "passed";
    else if (entry.left == null) status = "here";
    else status = entry.dwell >= VISITED_DWELL_SECONDS ? "visited" : "passed";
    // The ride began at this station: it only departed.
    if (entry.visiting === entry.first && entry.approaching == null && entry.left != null) status = "departed";
    return { station, status, events, dwell: entry.dwell };
  });
}
