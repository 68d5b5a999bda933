// TrainTracker Session Viewer: sessions, a map of the ride over the railways near it, the
// fixes, and the tracker's answer at each fix, with playback. Talks only to this server.
//
// Everything shown comes from phones and feeds: it reaches the page only as text (h() below
// builds DOM nodes; nothing is written as HTML). The admin token is sent once, to log in, and
// never kept: the server answers with an HttpOnly cookie.
"use strict";

// Railways are keyed by ids from the feed: a map without a prototype, so "__proto__" is a name like any other.
const state = {
  sessions: [], session: null, fixes: [], results: [], railways: Object.create(null), lines: [],
  selected: -1, playing: false, timer: null, map: null, layers: {}, live: null,
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// An element with properties (className, title, dataset entries as data-*) and children:
// strings become text nodes, so no value is ever parsed as HTML.
function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "dataset") Object.assign(element.dataset, value);
    else element[key] = value;
  }
  for (const child of children) {
    if (child == null) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// A CSS colour from the data only when it is a plain hex colour; grey otherwise.
function safeColour(colour) { return /^#[0-9a-fA-F]{3,8}$/.test(colour || "") ? colour : "#666"; }

function setStatus(text) { $("status").textContent = text; }

async function api(path, options) {
  const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options || {}));
  if (!response.ok) {
    let message = response.status + " " + response.statusText;
    try { message = (await response.json()).error.message; } catch (_) { /* keep the status */ }
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return response.json();
}

// MARK: Login

function showLogin(visible) {
  $("login").hidden = !visible;
  $("logout").hidden = visible;
}

async function logIn(event) {
  event.preventDefault();
  const token = $("token").value.trim();
  $("token").value = "";
  try {
    await api("/v1/login", { method: "POST", headers: { Authorization: "Bearer " + token } });
    showLogin(false);
    await loadSessions();
  } catch (error) {
    setStatus("Could not log in: " + error.message);
  }
}

async function logOut() {
  stopLive();
  await fetch("/v1/logout", { method: "POST", credentials: "same-origin" });
  $("sessions").querySelector("tbody").replaceChildren();
  showLogin(true);
  setStatus("Logged out");
}

// Red when stopped, through orange, to green at 25 m/s and above.
function speedColour(speed) {
  if (speed == null || speed < 0) return "#888";
  const t = Math.max(0, Math.min(1, speed / 25));
  const stops = [[215, 48, 31], [253, 174, 97], [26, 150, 65]];
  const [a, b, u] = t < 0.5 ? [stops[0], stops[1], t * 2] : [stops[1], stops[2], (t - 0.5) * 2];
  const mix = a.map((value, index) => Math.round(value + (b[index] - value) * u));
  return `rgb(${mix.join(",")})`;
}

function formatDuration(seconds) {
  if (seconds == null || seconds < 0) return "–";
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function stationName(id) {
  for (const railway of Object.values(state.railways)) {
    const station = railway.stations.find((item) => item.id === id);
    if (station) return station.name;
  }
  return id ? id.split(".").pop() : "–";
}

function railwayName(id) { return (state.railways[id] && state.railways[id].name) || (id ? id.split(".").pop() : "–"); }

// MARK: Sessions

async function loadSessions() {
  setStatus("Loading sessions…");
  try {
    const body = await api("/v1/sessions");
    showLogin(false);
    state.sessions = body.sessions;
    const rows = body.sessions.map((session) => {
      const chip = h("span", { className: "chip" });
      chip.style.background = safeColour(session.color);
      const row = h("tr", { dataset: { id: session.id }, title: session.id },
        h("td", {}, String(session.startDate).slice(0, 16).replace("T", " ")), h("td", {}, formatDuration(session.duration)),
        h("td", {}, session.fixes), h("td", {}, session.color ? chip : null, session.railwayName || "–"));
      row.addEventListener("click", () => openSession(session.id));
      return row;
    });
    $("sessions").querySelector("tbody").replaceChildren(...rows);
    setStatus(`${body.sessions.length} sessions`);
    const wanted = params.get("session");
    if (wanted) openSession(wanted);
  } catch (error) {
    if (error.status === 401) { showLogin(true); setStatus("Log in with an admin token"); return; }
    setStatus("Could not load sessions: " + error.message);
  }
}

async function openSession(id) {
  stopPlayback();
  stopLive();
  setStatus("Loading " + id + "…");
  for (const row of $("sessions").querySelectorAll("tbody tr")) row.classList.toggle("selected", row.dataset.id === id);
  try {
    const [results, network] = await Promise.all([
      api(`/v1/sessions/${encodeURIComponent(id)}/results`), api(`/v1/sessions/${encodeURIComponent(id)}/network`),
    ]);
    state.session = id;
    state.fixes = results.fixes;
    state.results = results.results;
    state.railways = Object.create(null);
    for (const railway of network.railways) state.railways[railway.id] = railway;
    for (const railway of results.railways) {
      state.railways[railway.id] = Object.assign(Object.create(null), state.railways[railway.id] || {}, railway);
    }
    drawMap(network.railways);
    fillFixes();
    $("scrubber").max = Math.max(0, state.fixes.length - 1);
    $("scrubber").disabled = state.fixes.length === 0;
    $("play").disabled = state.fixes.length === 0;
    setStatus(`${id}: ${state.fixes.length} fixes` + (results.skipped ? `, ${results.skipped} malformed skipped` : ""));
    select(state.fixes.length > 0 ? state.fixes.length - 1 : -1, { pan: false });
      const session = state.sessions.find((item) => item.id === id);
    if ($("follow").checked && session && !session.endDate) startLive();
  } catch (error) {
    setStatus("Could not load " + id + ": " + error.message);
  }
}

// MARK: Map

function ensureMap() {
  if (state.map) return state.map;
  // Without a tile layer Leaflet knows no zoom limit: give it one, or a single fix zooms to infinity.
  state.map = L.map("map", { preferCanvas: false, zoomSnap: 0.25, minZoom: 2, maxZoom: 19 });
  state.map.attributionControl.setPrefix("Tracks: the loaded railway data");
  return state.map;
}

function drawMap(railways) {
  const map = ensureMap();
  for (const layer of Object.values(state.layers)) if (layer) map.removeLayer(layer);
  const tracks = L.layerGroup();
  for (const railway of railways) {
    // Leaflet writes a string tooltip as HTML: give it a text node.
    L.polyline(railway.track, { color: safeColour(railway.color), weight: 3, opacity: 0.75 })
      .bindTooltip(h("span", {}, railway.name), { sticky: true }).addTo(tracks);
    for (const station of railway.stations || []) {
      L.circleMarker(station.position, { radius: 4, color: safeColour(railway.color), weight: 2, fillColor: "#fff", fillOpacity: 1 })
        .bindTooltip(h("span", {}, `${station.name} (${railway.name})`))
        .on("click", () => showStation(station.id)).addTo(tracks);
    }
  }
  const fixes = L.layerGroup();
  state.markers = state.fixes.map((fix, index) => L.circleMarker([fix.latitude, fix.longitude], {
    radius: 3, stroke: false, fillColor: speedColour(fix.speed), fillOpacity: 0.9,
  }).on("click", () => select(index, { pan: false })).addTo(fixes));
  state.layers = { tracks: tracks.addTo(map), fixes: fixes.addTo(map), selection: null, station: null };
  if (state.fixes.length > 0) {
    map.fitBounds(L.latLngBounds(state.fixes.map((fix) => [fix.latitude, fix.longitude])).pad(0.1), { maxZoom: 16 });
  } else {
    map.setView([35.68, 139.76], 11);
  }
}

// A marker at the fix and a 150 m arrow along its course.
function drawSelection(fix) {
  const map = ensureMap();
  if (state.layers.selection) map.removeLayer(state.layers.selection);
  const group = L.layerGroup();
  L.circleMarker([fix.latitude, fix.longitude], { radius: 8, color: "#000", weight: 2, fillOpacity: 0 }).addTo(group);
  if (fix.accuracy != null && fix.accuracy > 0) {
    L.circle([fix.latitude, fix.longitude], { radius: fix.accuracy, color: "#555", weight: 1, dashArray: "3 3", fillOpacity: 0.05 }).addTo(group);
  }
  if (fix.course != null && fix.course >= 0) {
    const radians = fix.course * Math.PI / 180;
    const north = 150 * Math.cos(radians) / 111320;
    const east = 150 * Math.sin(radians) / (111320 * Math.cos(fix.latitude * Math.PI / 180));
    L.polyline([[fix.latitude, fix.longitude], [fix.latitude + north, fix.longitude + east]], { color: "#000", weight: 2 }).addTo(group);
  }
  state.layers.selection = group.addTo(map);
}

// MARK: Fixes and the inspector

function fillFixes() {
  const rows = state.fixes.map((fix, index) => {
    const result = state.results[index] || {};
    const speed = fix.speed != null && fix.speed >= 0 ? (fix.speed * 3.6).toFixed(0) : "–";
    const course = fix.course != null && fix.course >= 0 ? fix.course.toFixed(0) + "°" : "–";
    const cells = [index + 1, String(fix.timestamp).slice(11, 19), speed, course,
      fix.accuracy != null ? fix.accuracy.toFixed(0) : "–", railwayName(result.railway), result.direction || "–",
      stationName(result.station), result.phase || "–"];
    const row = h("tr", {}, ...cells.map((cell) => h("td", {}, cell)));
    row.addEventListener("click", () => select(index, { pan: true }));
    return row;
  });
  $("fixes").querySelector("tbody").replaceChildren(...rows);
}

function select(index, { pan }) {
  state.selected = index;
  const rows = $("fixes").querySelectorAll("tbody tr");
  rows.forEach((row, position) => row.classList.toggle("selected", position === index));
  if (index < 0) return;
  if (rows[index] && !state.playing) rows[index].scrollIntoView({ block: "nearest" });
  const fix = state.fixes[index];
  $("scrubber").value = index;
  $("clock").textContent = fix.timestamp.slice(11, 19) + " UTC";
  drawSelection(fix);
  if (pan) ensureMap().panTo([fix.latitude, fix.longitude]);
  showAnswer(state.results[index], fix);
}

function showAnswer(result, fix) {
  const answer = $("answer");
  if (!result || !result.railway) {
    answer.replaceChildren(h("p", { className: "hint" }, `No answer yet at fix ${fix ? fix.id : ""}.`));
    $("candidates").querySelector("tbody").replaceChildren();
    $("stations").replaceChildren();
    return;
  }
  const phaseLabel = { next: "Next", soon: "Soon", now: "Now" }[result.phase] || result.phase;
  const eta = result.eta ? String(result.eta).slice(11, 16) + " UTC" : "–";
  const facts = [
    ["Fix", fix.id], ["Train type", result.trainType ? String(result.trainType).split(".").pop() : "–"],
    ["Next stop", `${stationName(result.nextStop)} (${eta})`],
    ["Confidence", result.confidence != null ? (result.confidence * 100).toFixed(0) + " %" : "–"],
    ["Estimated", result.estimated ? "yes (no fix)" : "no"],
  ];
  answer.replaceChildren(
    h("div", { className: "headline" }, `${railwayName(result.railway)} · ${result.direction}`, h("br"),
      `${phaseLabel}: ${stationName(result.station)}`),
    h("dl", {}, ...facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])));
  // Why: what each kind of evidence added at this fix, per railway and direction (text only).
  const evidence = new Map((Array.isArray(result.evidence) ? result.evidence : [])
    .map((item) => [`${item.railway}\u0001${item.direction}`, item.terms || {}]));
  const why = (candidate) => Object.entries(evidence.get(`${candidate.railway}\u0001${candidate.direction}`) || {})
    .filter(([, nats]) => Math.abs(Number(nats)) >= 0.005)
    .map(([term, nats]) => `${term} ${Number(nats) >= 0 ? "+" : ""}${Number(nats).toFixed(2)}`).join(" · ");
  // Each candidate, and under it why (when this fix said anything about it).
  const rows = (result.candidates || []).flatMap((candidate, rank) => {
    const row = h("tr", {},
      h("td", {}, rank + 1), h("td", {}, railwayName(candidate.railway)), h("td", {}, candidate.direction),
      h("td", {}, `${stationName(candidate.station)} (${candidate.phase})`), h("td", {}, Number(candidate.score).toFixed(2)));
    const text = why(candidate);
    return text ? [row, h("tr", { className: "why-row" }, h("td", {}), h("td", { className: "why", colSpan: 4 }, text))] : [row];
  });
  $("candidates").querySelector("tbody").replaceChildren(...rows);
  showStations(result);
}

// The best candidate's line: stations behind the focus are passed, the focus carries its phase.
function showStations(result) {
  const railway = state.railways[result.railway];
  const list = $("stations");
  if (!railway || !railway.stations) { list.replaceChildren(); return; }
  const stations = railway.stations.slice();
  if (result.direction === railway.descending) stations.reverse();
  const focus = stations.findIndex((station) => station.id === result.station);
  const items = stations.map((station, index) => {
    const item = document.createElement("li");
    item.textContent = station.name;
    if (index < focus) item.className = "passed";
    if (index === focus) {
      item.className = "focus";
      const badge = document.createElement("span");
      badge.className = "phase " + result.phase;
      badge.textContent = result.phase;
      item.appendChild(badge);
    }
    item.addEventListener("click", () => showStation(station.id));
    return item;
  });
  list.replaceChildren(...items);
  if (focus >= 0 && !state.playing) items[focus].scrollIntoView({ block: "nearest" });
}

// The fixes whose answer had this station in focus, coloured by phase: what decided it.
function showStation(id) {
  const map = ensureMap();
  if (state.layers.station) map.removeLayer(state.layers.station);
  const colours = { next: "#2b83ba", soon: "#f08a24", now: "#d7301f" };
  const counts = { next: 0, soon: 0, now: 0 };
  const group = L.layerGroup();
  state.results.forEach((result, index) => {
    if (result.station !== id) return;
    counts[result.phase] = (counts[result.phase] || 0) + 1;
    const fix = state.fixes[index];
    L.circleMarker([fix.latitude, fix.longitude], { radius: 5, color: colours[result.phase] || "#333", weight: 2, fillOpacity: 0 })
      .on("click", () => select(index, { pan: false })).addTo(group);
  });
  state.layers.station = group.addTo(map);
  const total = counts.next + counts.soon + counts.now;
  const badge = (phase) => h("span", { className: "phase " + phase }, phase);
  $("station-detail").replaceChildren(h("h3", {}, stationName(id)), total === 0
    ? h("p", { className: "hint" }, "No fix had this station in focus.")
    : h("p", {}, `${total} fixes had it in focus: `, badge("next"), ` ${counts.next} `, badge("soon"), ` ${counts.soon} `,
      badge("now"), ` ${counts.now} (circled on the map).`));
}

// MARK: Playback

function stopPlayback() {
  state.playing = false;
  clearTimeout(state.timer);
  $("play").textContent = "▶ Play";
}

function step() {
  if (!state.playing) return;
  const next = state.selected + 1;
  if (next >= state.fixes.length) { stopPlayback(); return; }
  select(next, { pan: true });
  const rate = Number($("rate").value);
  const gap = (Date.parse(state.fixes[Math.min(next + 1, state.fixes.length - 1)].timestamp) - Date.parse(state.fixes[next].timestamp)) / rate;
  state.timer = setTimeout(step, Math.max(16, Math.min(gap, 5000)));
}

function togglePlayback() {
  if (state.playing) { stopPlayback(); return; }
  if (state.selected >= state.fixes.length - 1) select(0, { pan: true });
  state.playing = true;
  $("play").textContent = "❚❚ Pause";
  step();
}

// MARK: Live

function stopLive() {
  if (state.live) { state.live.abort(); state.live = null; }
}

// Server-sent events over fetch, so the stream can be stopped at once.
async function startLive() {
  stopLive();
  const controller = new AbortController();
  state.live = controller;
  try {
    const response = await fetch(`/v1/sessions/${encodeURIComponent(state.session)}/live`, {
      credentials: "same-origin", signal: controller.signal,
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (event.startsWith("data: ")) liveResult(JSON.parse(event.slice(6)));
        if (event.startsWith("event: end")) setStatus("Live stream ended");
      }
    }
  } catch (error) {
    if (error.name !== "AbortError") setStatus("Live stream ended: " + error.message);
  }
}

// A new answer: say it, and reload the session (at most one reload at a time).
function liveResult(result) {
  setStatus(`live: ${railwayName(result.railway)} ${result.phase || ""} ${stationName(result.station)} at ${result.timestamp.slice(11, 19)}`);
  if (state.reloading || state.results.some((item) => item.locationID === result.locationID)) return;
  state.reloading = true;
  reloadSession().finally(() => { state.reloading = false; });
}

async function reloadSession() {
  const results = await api(`/v1/sessions/${encodeURIComponent(state.session)}/results`);
  const atEnd = state.selected >= state.fixes.length - 1;
  state.fixes = results.fixes;
  state.results = results.results;
  const fixes = state.layers.fixes;
  for (let index = state.markers.length; index < state.fixes.length; index++) {
    const fix = state.fixes[index];
    state.markers.push(L.circleMarker([fix.latitude, fix.longitude], {
      radius: 3, stroke: false, fillColor: speedColour(fix.speed), fillOpacity: 0.9,
    }).on("click", () => select(index, { pan: false })).addTo(fixes));
  }
  fillFixes();
  $("scrubber").max = Math.max(0, state.fixes.length - 1);
  if (atEnd) select(state.fixes.length - 1, { pan: true });
}

// MARK: Start

$("login").addEventListener("submit", logIn);
$("logout").addEventListener("click", logOut);
$("play").addEventListener("click", togglePlayback);
$("scrubber").addEventListener("input", (event) => { stopPlayback(); select(Number(event.target.value), { pan: true }); });
$("follow").addEventListener("change", (event) => { if (event.target.checked && state.session) startLive(); else stopLive(); });
// A token left by older versions of this page is removed; the login cookie is all it needs.
try { localStorage.removeItem("traintracker.token"); } catch (_) { /* storage may be off */ }

// A login link (/login?ticket=…) is redeemed by this script, with a POST, and leaves the
// address bar at once: the ticket works once and is never kept.
async function start() {
  const ticket = params.get("ticket");
  if (location.pathname === "/login" && ticket) {
    const session = params.get("session");
    params.delete("ticket");
    history.replaceState(null, "", "/" + (session ? "?session=" + encodeURIComponent(session) : ""));
    try {
      await api("/v1/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ticket }) });
    } catch (error) {
      setStatus("Could not log in: " + error.message);
    }
  }
  await loadSessions();
}
start();
