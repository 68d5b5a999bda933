// The server's API, as the viewer uses it, and the state the panels share.

// Railways are keyed by ids from the feed: maps without a prototype, so "__proto__" is a name like any other.
export const state = {
  session: null, sessionInfo: null, fixes: [], results: [], railways: Object.create(null), estimates: new Map(), gapAnswers: [],
  selected: -1, playing: false, focusStation: null, live: null, config: { tiles: null },
};

export class APIError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// A JSON answer of this server (with the login cookie), or an APIError with its message.
export async function api(path, options) {
  const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options || {}));
  if (!response.ok) {
    let message = response.status + " " + response.statusText;
    try { message = (await response.json()).error.message; } catch (_) { /* keep the status */ }
    throw new APIError(message, response.status);
  }
  return response.json();
}

export const sessionPath = (id) => `/v1/sessions/${encodeURIComponent(id)}`;

export function railway(id) { return state.railways[id] || null; }

export function railwayName(id) { const item = railway(id); return (item && item.name) || (id ? String(id).split(".").pop() : "–"); }

const stationNames = new Map();

// Remembers the names of `railways`' stations.
export function learnStations(railways) {
  for (const item of railways) for (const station of item.stations || []) stationNames.set(station.id, station.name);
}

export function stationName(id) { return stationNames.get(id) || (id ? String(id).split(".").pop() : "–"); }

// A railway's stations in the order a train in `direction` (a direction's name) meets them.
export function stationsInTravelOrder(railwayID, direction) {
  const item = railway(railwayID);
  if (!item || !item.stations) return [];
  const stations = item.stations.slice();
  if (direction != null && direction === item.descending) stations.reverse();
  return stations;
}

// Where a train in `direction` goes: the last station in travel order; none on a loop.
export function terminalOf(railwayID, direction) {
  const item = railway(railwayID);
  const stations = stationsInTravelOrder(railwayID, direction);
  if (!item || stations.length < 2 || item.isLoop || /loop/i.test(String(direction))) return null;
  if (stations[0].id === stations[stations.length - 1].id) return null;
  return stations[stations.length - 1];
}
