// TrainTracker Session Viewer: sessions, a map of the ride over a base map, the rider's view,
// the fixes, and the tracker's answer at each fix with why, with playback and live following.
// Talks only to this server. The admin token is sent once, to log in, and never kept: the
// server answers with an HttpOnly cookie.

import { h, $, clock, formatTime, zoneName, offsetName, knownTimeZone } from "./dom.js";
import { api, state, sessionPath, learnStations, railwayName, stationName } from "./api.js";
import { ensureMap, drawBase, drawRide, addFix, drawSelection } from "./map.js";
import { showRider, directionLabel } from "./rider.js";
import { showAnswer, showStation } from "./inspector.js";
import { drawChart, markChart } from "./chart.js";
import { startSessionList, loadSessions, markOpen, listed } from "./sessions.js";
import { startLive, stopLive, liveReady } from "./live.js";
import { startTrains } from "./trains.js";

const params = new URLSearchParams(location.search);
// The session asked for by the address, decoded as a path would be: a "+" in an id stays a "+".
const wantedSession = (() => {
  const match = location.search.match(/[?&]session=([^&]*)/);
  try { return match ? decodeURIComponent(match[1]) : null; } catch (_) { return null; }
})();
// Playback waits at most this long between fixes, and at least a frame.
const LONGEST_STEP_MS = 5000;
const SHORTEST_STEP_MS = 16;

function setStatus(text) { $("status").textContent = text; }

const handlers = {
  select: (index) => select(index, { pan: true }),
  station: (id) => { state.focusStation = id; showStation(id, handlers); },
};

// MARK: Login

function showLogin(visible) {
  $("login").hidden = !visible;
  $("logout").hidden = visible;
  if (visible) setStatus("Log in with an admin token");
}

async function logIn(event) {
  event.preventDefault();
  const token = $("token").value.trim();
  $("token").value = "";
  try {
    await api("/v1/login", { method: "POST", headers: { Authorization: "Bearer " + token } });
    showLogin(false);
    await afterLogin();
  } catch (error) {
    setStatus("Could not log in: " + error.message);
  }
}

async function logOut() {
  closeSession();
  await fetch("/v1/logout", { method: "POST", credentials: "same-origin" });
  $("sessions").querySelector("tbody").replaceChildren();
  showLogin(true);
  setStatus("Logged out");
}

// MARK: A session

function closeSession() {
  stopPlayback();
  stopLive();
  Object.assign(state, { session: null, fixes: [], results: [], estimates: new Map(), selected: -1, focusStation: null });
  drawRide([], () => {}, () => {});
  fillFixes();
  showRider(null, null);
  showAnswer(-1, handlers);
  drawChart((index) => select(index, { pan: true }));
  $("session-title").textContent = "";
  markOpen();
}

async function openSession(session) {
  const id = session.id;
  stopPlayback();
  stopLive();
  setStatus("Loading " + id + "…");
  Object.assign(state, { session: id, sessionInfo: session, focusStation: null });
  markOpen();
  try {
    // Listen first, so no answer falls between the load and the stream.
    if (session.live) await startLive(id, liveAnswer, (reason) => setStatus(`live stream ended (${reason})`));
    const [results, network] = await Promise.all([api(`${sessionPath(id)}/results`), api(`${sessionPath(id)}/network`)]);
    if (state.session !== id) return;
    state.fixes = results.fixes;
    state.results = results.results;
    state.estimates = new Map((results.estimates || []).map((gap) => [gap.after, gap.answers]));
    state.railways = Object.create(null);
    for (const railway of network.railways) state.railways[railway.id] = railway;
    for (const railway of results.railways) {
      state.railways[railway.id] = Object.assign(Object.create(null), state.railways[railway.id] || {}, railway);
    }
    learnStations(network.railways);
    learnStations(results.railways);
    drawRide(network.railways, handlers.select, handlers.station);
    fillFixes();
    $("scrubber").max = Math.max(0, state.fixes.length - 1);
    $("scrubber").disabled = state.fixes.length === 0;
    $("play").disabled = state.fixes.length === 0;
    $("session-title").textContent = id + (session.notes ? ` · ${session.notes}` : "");
    drawChart(handlers.select);
    select(state.fixes.length > 0 ? state.fixes.length - 1 : -1, { pan: false });
    state.skipped = results.skipped;
    statusOfSession();
    liveReady();
  } catch (error) {
    setStatus("Could not load " + id + ": " + error.message);
  }
}

// "408 fixes · 2 malformed skipped · live".
function statusOfSession() {
  const info = state.sessionInfo || {};
  setStatus(`${state.fixes.length} fixes` + (state.skipped ? ` · ${state.skipped} malformed skipped` : "") + (info.live ? " · live" : ""));
}

// A live answer with its fix: appended, not reloaded.
function liveAnswer({ fix, result }) {
  if (!fix || !result || state.results.some((item) => item.locationID === result.locationID)) return;
  const atEnd = state.selected >= state.fixes.length - 1;
  const index = state.fixes.length;
  state.fixes.push(fix);
  state.results.push(result);
  addFix(fix, index, handlers.select);
  $("fixes").querySelector("tbody").append(fixRow(fix, result, index));
  $("scrubber").max = Math.max(0, state.fixes.length - 1);
  $("scrubber").disabled = false;
  $("play").disabled = false;
  $("live-count").textContent = `${state.fixes.length} fixes`;
  statusOfSession();
  if (atEnd && $("follow").checked && !state.playing) select(index, { pan: true });
  scheduleChart();
}

// The chart is redrawn at most once a second while a live ride grows.
let chartTimer = null;
function scheduleChart() {
  if (chartTimer) return;
  chartTimer = setTimeout(() => { chartTimer = null; drawChart(handlers.select); }, 1000);
}

// MARK: Fixes and selection

function fixRow(fix, result, index) {
  result = result || {};
  const speed = fix.speed != null && fix.speed >= 0 ? (fix.speed * 3.6).toFixed(0) : "–";
  const course = fix.course != null && fix.course >= 0 ? fix.course.toFixed(0) + "°" : "–";
  const cells = [index + 1, formatTime(fix.timestamp), speed, course, fix.accuracy != null ? fix.accuracy.toFixed(0) : "–",
    railwayName(result.railway), result.railway ? directionLabel(result.railway, result.direction) : "–",
    stationName(result.station)];
  const row = h("tr", {}, cells.map((cell) => h("td", {}, cell)),
    h("td", {}, result.phase ? h("span", { className: `phase ${result.phase}` }, result.phase) : "–"));
  row.addEventListener("click", () => select(index, { pan: true }));
  return row;
}

function fillFixes() {
  $("time-header").textContent = `Time (${zoneName()})`;
  $("fixes").querySelector("tbody").replaceChildren(...state.fixes.map((fix, index) => fixRow(fix, state.results[index], index)));
  $("live-count").textContent = "";
}

// Keeps row `index` in view inside the table's own scroll box (never scrolling the page).
function scrollRowIntoView(row) {
  const box = $("fixes-scroll");
  const header = $("fixes").querySelector("thead").offsetHeight;
  const top = row.offsetTop - header;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (row.offsetTop + row.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = row.offsetTop + row.offsetHeight - box.clientHeight;
}

function select(index, { pan }) {
  const previous = $("fixes").querySelector("tbody tr.selected");
  if (previous) previous.classList.remove("selected");
  state.selected = index;
  if (index < 0 || index >= state.fixes.length) { showRider(null, null); showAnswer(-1, handlers); return; }
  const row = $("fixes").querySelector("tbody").children[index];
  if (row) { row.classList.add("selected"); scrollRowIntoView(row); }
  const fix = state.fixes[index];
  $("scrubber").value = index;
  $("clock").textContent = `${formatTime(fix.timestamp)} ${zoneName()} · fix ${index + 1}/${state.fixes.length}`;
  drawSelection(fix, pan);
  showRider(state.results[index], fix);
  showAnswer(index, handlers);
  markChart();
}

// MARK: Playback and keys

function stopPlayback() {
  state.playing = false;
  clearTimeout(state.timer);
  state.gapAnswers = [];
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-pressed", "false");
}

// Waits `fromIso` → `toIso` (played at the chosen rate), then calls `next`.
function wait(fromIso, toIso, next) {
  const gap = (Date.parse(toIso) - Date.parse(fromIso)) / Number($("rate").value);
  state.timer = setTimeout(next, Math.max(SHORTEST_STEP_MS, Math.min(gap, LONGEST_STEP_MS)));
}

// Plays the next fix, or in a gap between fixes (a tunnel) the tracker's estimates, muted.
function step() {
  if (!state.playing) return;
  if (state.gapAnswers && state.gapAnswers.length > 0) {
    const answer = state.gapAnswers.shift();
    const since = (Date.parse(answer.timestamp) - Date.parse(state.fixes[state.selected].timestamp)) / 1000;
    showRider(answer, state.fixes[state.selected], since);
    $("clock").textContent = `${formatTime(answer.timestamp)} ${zoneName()} · no fix since fix ${state.selected + 1}`;
    const following = state.gapAnswers[0] || state.fixes[state.selected + 1];
    if (following) wait(answer.timestamp, following.timestamp, step); else stopPlayback();
    return;
  }
  const next = state.selected + 1;
  if (next >= state.fixes.length) { stopPlayback(); return; }
  select(next, { pan: true });
  state.gapAnswers = (state.estimates.get(next) || []).slice();
  const following = state.gapAnswers[0] || state.fixes[Math.min(next + 1, state.fixes.length - 1)];
  wait(state.fixes[next].timestamp, following.timestamp, step);
}

function togglePlayback() {
  if (state.fixes.length === 0) return;
  if (state.playing) { stopPlayback(); return; }
  if (state.selected >= state.fixes.length - 1) select(0, { pan: true });
  state.playing = true;
  $("play").textContent = "❚❚ Pause";
  $("play").setAttribute("aria-pressed", "true");
  step();
}

// Space plays and pauses; arrows step a fix (with Shift, ten); Home and End jump.
function onKey(event) {
  const target = event.target;
  if (target && (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) && target.id !== "scrubber" || target.isContentEditable)) return;
  if ($("confirm-delete").open || state.fixes.length === 0) return;
  // Space on a focused button presses that button, as everywhere.
  if (event.key === " " && target && target.tagName === "BUTTON") return;
  const last = state.fixes.length - 1;
  const stride = event.shiftKey ? 10 : 1;
  const moves = { ArrowRight: state.selected + stride, ArrowLeft: state.selected - stride, Home: 0, End: last };
  if (event.key === " ") { event.preventDefault(); togglePlayback(); return; }
  if (event.key in moves) {
    event.preventDefault();
    stopPlayback();
    select(Math.max(0, Math.min(last, moves[event.key])), { pan: true });
  }
}

// MARK: Start

let baseDrawn = false;

// With timetables, times are shown on their clock (the riders' own) unless chosen otherwise.
function offerNetworkClock(offset, timeZone) {
  const validOffset = typeof offset === "number" && Number.isFinite(offset) && Math.abs(offset) <= 18 * 3600;
  clock.timeZone = knownTimeZone(timeZone);
  if (!validOffset && !clock.timeZone) return;
  clock.offset = validOffset ? offset : 0;
  const chooser = $("zone");
  chooser.prepend(h("option", { value: "network" }, `the timetables' (${clock.timeZone ?? offsetName(clock.offset)})`));
  chooser.value = "network";
  clock.zone = "network";
  fillFixes();
  if (state.selected >= 0) select(state.selected, { pan: false });
  loadSessions().catch(() => {});
}

async function afterLogin() {
  const body = await loadSessions();
  if (!body) return;
  setStatus(`${body.total} sessions`);
  if (!baseDrawn) {
    baseDrawn = true;
    try { state.config = await api("/v1/viewer-config"); } catch (_) { /* the offline base, UTC */ }
    offerNetworkClock(state.config.utcOffsetSeconds, state.config.timeZone);
    drawBase().catch((error) => setStatus("Could not draw the base map: " + error.message));
    startTrains();
  }
  const wanted = wantedSession;
  if (wanted && !state.session) {
    // The session asked for by the address, listed or not (a filter may hide it).
    const found = listed(wanted) || (await api(`/v1/sessions?q=${encodeURIComponent(wanted)}&limit=200`)).sessions.find((item) => item.id === wanted);
    if (found) await openSession(found); else setStatus(`No session ${wanted}`);
  }
}

async function start() {
  $("login").addEventListener("submit", logIn);
  $("logout").addEventListener("click", logOut);
  $("play").addEventListener("click", togglePlayback);
  $("scrubber").addEventListener("input", (event) => { stopPlayback(); select(Number(event.target.value), { pan: true }); });
  $("zone").addEventListener("change", (event) => {
    clock.zone = event.target.value;
    fillFixes();
    if (state.selected >= 0) select(state.selected, { pan: false });
    loadSessions().catch(() => {});
  });
  document.addEventListener("keydown", onKey);
  startSessionList(openSession, (loggedIn) => showLogin(!loggedIn), closeSession);
  // A token left by older versions of this page is removed; the login cookie is all it needs.
  try { localStorage.removeItem("traintracker.token"); } catch (_) { /* storage may be off */ }
  ensureMap();
  // A login link (/login?ticket=…) is redeemed by this script, with a POST, and leaves the
  // address bar at once: the ticket works once and is never kept.
  const ticket = params.get("ticket");
  if (location.pathname === "/login" && ticket) {
    const session = params.get("session");
    history.replaceState(null, "", "/" + (session ? "?session=" + encodeURIComponent(session) : ""));
    try {
      await api("/v1/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ticket }) });
    } catch (error) {
      setStatus("Could not log in: " + error.message);
    }
  }
  await afterLogin();
}

start();
