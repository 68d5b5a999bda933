// The trains the server knows of right now (GET /v1/realtime/trains): from operators' feeds
// and from riders, each a marker with its name, its delay and where the delay came from.
// Refreshed every TRAINS_SECONDS while the page is open; a train's text never becomes HTML.

import { h } from "./dom.js";
import { api } from "./api.js";
import { ensureMap } from "./map.js";

// How often the trains are fetched again, in seconds.
export const TRAINS_SECONDS = 15;

let layer = null;
let timer = null;

// "Train 102 · 4 min late · operator's feed" (or "· 2 riders").
export function trainLabel(train) {
  const name = typeof train.train === "string" && train.train !== "" ? train.train : String(train.trip || "?");
  let text = `Train ${name}`;
  if (typeof train.delaySeconds === "number" && Number.isFinite(train.delaySeconds)) {
    const minutes = Math.round(train.delaySeconds / 60);
    text += minutes > 0 ? ` · ${minutes} min late` : minutes < 0 ? ` · ${-minutes} min early` : " · on time";
  }
  if (train.source === "operator") text += " · operator's feed";
  else if (typeof train.riders === "number") text += ` · ${train.riders} rider${train.riders === 1 ? "" : "s"}`;
  return text;
}

// Draws `trains` (the answer's list) on the map, replacing the last ones.
export function drawTrains(trains) {
  const map = ensureMap();
  if (layer) map.removeLayer(layer);
  // Above the ride's fixes and the selection ring: a train and its rider are at one place.
  if (!map.getPane("trains")) map.createPane("trains").style.zIndex = 450;
  const group = L.layerGroup();
  for (const train of trains) {
    if (typeof train.lat !== "number" || typeof train.lon !== "number") continue;
    const late = typeof train.delaySeconds === "number" && train.delaySeconds >= 300;
    L.circleMarker([train.lat, train.lon], {
      pane: "trains", radius: 7, weight: 3, color: train.source === "operator" ? "#1f4e99" : "#7a3fb0",
      fillColor: late ? "#d9480f" : "#fff", fillOpacity: 1, className: `train-marker train-${train.source === "operator" ? "operator" : "riders"}`,
    }).bindTooltip(h("span", {}, trainLabel(train))).addTo(group);
  }
  layer = group.addTo(map);
  const count = document.getElementById("train-count");
  if (count) count.textContent = trains.length ? ` · ${trains.length} train${trains.length === 1 ? "" : "s"} live` : "";
}

// Fetches and draws the trains now and every TRAINS_SECONDS.
export async function startTrains() {
  const refresh = async () => {
    try {
      const body = await api("/v1/realtime/trains");
      drawTrains(Array.isArray(body.trains) ? body.trains : []);
    } catch (_) { /* logged out or the server away: the next refresh tries again */ }
  };
  if (timer) clearInterval(timer);
  timer = setInterval(refresh, TRAINS_SECONDS * 1000);
  await refresh();
}
