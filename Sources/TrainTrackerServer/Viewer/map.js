// The map: a base (tiles from the server's --tiles source, or offline the whole loaded
// network, faint, with station names when zoomed in), the railways near the ride, the fixes
// coloured by speed, the selected fix with its accuracy and course, and a station's story
// (the fixes that decided each phase, circled).

import { h, safeColour, speedColour, colours, formatTime } from "./dom.js";
import { state, api, stationName } from "./api.js";

// Station names show on the offline base from this zoom, at most this many at once.
const LABEL_ZOOM = 13;
const MOST_LABELS = 120;

const layers = { base: null, labels: null, tracks: null, fixes: null, selection: null, story: null };
let map = null;
let baseStations = [];

// A tooltip's content as a text node: Leaflet writes a string tooltip as HTML.
const text = (value) => h("span", {}, value);

export function ensureMap() {
  if (map) return map;
  // Without a tile layer Leaflet knows no zoom limit: give it one, or a single fix zooms to infinity.
  map = L.map("map", { zoomSnap: 0.25, minZoom: 2, maxZoom: 19 });
  map.attributionControl.setPrefix(false);
  // The base lies under everything and takes no clicks.
  map.createPane("base");
  map.getPane("base").style.zIndex = 250;
  map.getPane("base").style.pointerEvents = "none";
  map.setView([35.68, 139.76], 11);
  return map;
}

// The base map: the server's tiles, or the loaded network drawn faint (offline).
export async function drawBase() {
  const target = ensureMap();
  const tiles = state.config.tiles;
  if (tiles && typeof tiles.url === "string") {
    // Tile servers (OpenStreetMap's among them) ask for a Referer: this page's origin, never
    // its address (which names a session).
    const Tiles = L.TileLayer.extend({
      createTile(coords, done) {
        const tile = L.TileLayer.prototype.createTile.call(this, coords, done);
        tile.referrerPolicy = "strict-origin";
        return tile;
      },
    });
    layers.base = new Tiles(tiles.url, { maxZoom: 19, attribution: "" }).addTo(target);
    // Leaflet writes an attribution as HTML: only its text goes in (the © sign kept).
    target.attributionControl.addAttribution(String(tiles.attribution || "").replace(/&copy;/g, "©").replace(/[<>&"']/g, ""));
    return;
  }
  target.attributionControl.addAttribution("Base: the loaded railway network (offline)");
  const network = await api("/v1/network");
  const renderer = L.canvas({ padding: 0.3, pane: "base" });
  const group = L.layerGroup();
  baseStations = [];
  for (const railway of network.railways) {
    L.polyline(railway.track, { renderer, color: safeColour(railway.color), weight: 1.5, opacity: 0.35, interactive: false }).addTo(group);
    for (const station of railway.stations || []) baseStations.push(station);
  }
  layers.base = group.addTo(target);
  layers.labels = L.layerGroup().addTo(target);
  target.on("moveend zoomend", placeLabels);
  placeLabels();
}

// Station names in view, when zoomed in far enough (one per name).
function placeLabels() {
  if (!layers.labels) return;
  layers.labels.clearLayers();
  if (map.getZoom() < LABEL_ZOOM) return;
  const bounds = map.getBounds();
  const named = new Set();
  for (const station of baseStations) {
    if (named.size >= MOST_LABELS) break;
    if (named.has(station.name) || !bounds.contains(station.position)) continue;
    named.add(station.name);
    L.tooltip({ permanent: true, direction: "right", className: "place-label", interactive: false })
      .setLatLng(station.position).setContent(text(station.name)).addTo(layers.labels);
  }
}

function fixMarker(fix, index, onPick) {
  return L.circleMarker([fix.latitude, fix.longitude], {
    radius: 3.5, stroke: false, fillColor: speedColour(fix.speed), fillOpacity: 0.95,
  }).on("click", () => onPick(index));
}

// The ride: the railways near it, its fixes; the view fitted to it.
export function drawRide(railways, onPick, onStation) {
  const target = ensureMap();
  for (const name of ["tracks", "fixes", "selection", "story"]) if (layers[name]) { target.removeLayer(layers[name]); layers[name] = null; }
  const tracks = L.layerGroup();
  for (const railway of railways) {
    L.polyline(railway.track, { color: safeColour(railway.color), weight: 3, opacity: 0.8 })
      .bindTooltip(text(railway.name), { sticky: true }).addTo(tracks);
    for (const station of railway.stations || []) {
      L.circleMarker(station.position, { radius: 4, color: safeColour(railway.color), weight: 2, fillColor: "#fff", fillOpacity: 1 })
        .bindTooltip(text(`${station.name} (${railway.name})`))
        .on("click", () => onStation(station.id)).addTo(tracks);
    }
  }
  const fixes = L.layerGroup();
  state.fixes.forEach((fix, index) => fixMarker(fix, index, onPick).addTo(fixes));
  layers.tracks = tracks.addTo(target);
  layers.fixes = fixes.addTo(target);
  // The panel may have changed size since the map was made.
  target.invalidateSize({ animate: false });
  if (state.fixes.length > 0) {
    target.fitBounds(L.latLngBounds(state.fixes.map((fix) => [fix.latitude, fix.longitude])).pad(0.1), { maxZoom: 16, animate: false });
  }
}

// One more fix of a live ride.
export function addFix(fix, index, onPick) {
  if (layers.fixes) fixMarker(fix, index, onPick).addTo(layers.fixes);
}

// A ring at the fix, its accuracy, and a 150 m arrow along its course.
export function drawSelection(fix, pan) {
  const target = ensureMap();
  if (layers.selection) target.removeLayer(layers.selection);
  const group = L.layerGroup();
  L.circleMarker([fix.latitude, fix.longitude], { radius: 8, color: "#000", weight: 2, fillOpacity: 0, interactive: false }).addTo(group);
  if (fix.accuracy != null && fix.accuracy > 0) {
    L.circle([fix.latitude, fix.longitude], { radius: fix.accuracy, color: "#555", weight: 1, dashArray: "3 3", fillOpacity: 0.05, interactive: false }).addTo(group);
  }
  if (fix.course != null && fix.course >= 0) {
    const radians = fix.course * Math.PI / 180;
    const north = 150 * Math.cos(radians) / 111320;
    const east = 150 * Math.sin(radians) / (111320 * Math.cos(fix.latitude * Math.PI / 180));
    L.polyline([[fix.latitude, fix.longitude], [fix.latitude + north, fix.longitude + east]], { color: "#000", weight: 2, interactive: false }).addTo(group);
  }
  layers.selection = group.addTo(target);
  if (pan && !target.getBounds().pad(-0.15).contains([fix.latitude, fix.longitude])) target.panTo([fix.latitude, fix.longitude]);
}

// A station's story on the map: each event's fix circled in its phase's colour.
export function drawStory(entry, onPick) {
  const target = ensureMap();
  if (layers.story) target.removeLayer(layers.story);
  layers.story = null;
  if (!entry) return;
  const group = L.layerGroup();
  for (const event of entry.events) {
    const fix = state.fixes[event.index];
    L.circleMarker([fix.latitude, fix.longitude], { radius: 9, color: colours[event.phase] || "#333", weight: 3, fillOpacity: 0, className: "story-ring" })
      .bindTooltip(text(`${stationName(entry.station.id)}: ${event.phase} at ${formatTime(event.time)}`))
      .on("click", () => onPick(event.index)).addTo(group);
  }
  layers.story = group.addTo(target);
}
