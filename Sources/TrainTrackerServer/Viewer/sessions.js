// The session list: id, notes, device, start, duration from the fixes, fixes, line and
// whether it is live; search and filters (live, device, line, dates), a page at a time;
// updated every LIST_REFRESH_MS; an admin deletes a session after confirming.

import { h, $, safeColour, formatDate, formatDuration } from "./dom.js";
import { api, state, sessionPath, APIError } from "./api.js";

export const PAGE = 50;
const LIST_REFRESH_MS = 15000;
const SEARCH_WAIT_MS = 250;

const list = { offset: 0, total: 0, timer: null, searchTimer: null, onOpen: null, onAuth: null, sessions: [] };

// The query string of the filters now set.
function query() {
  const params = new URLSearchParams({ offset: String(list.offset), limit: String(PAGE) });
  const fields = { q: $("search").value.trim(), live: $("filter-live").value, device: $("filter-device").value,
    line: $("filter-line").value, from: $("filter-from").value, to: $("filter-to").value };
  for (const [name, value] of Object.entries(fields)) if (value) params.set(name, value);
  return params.toString();
}

// Keeps a select's choice while its options change.
function fillSelect(select, items, label) {
  const chosen = select.value;
  select.replaceChildren(h("option", { value: "" }, label), ...items.map(([value, text]) => h("option", { value }, text)));
  select.value = items.some(([value]) => value === chosen) ? chosen : "";
}

export async function loadSessions() {
  try {
    let body = await api("/v1/sessions?" + query());
    // A page emptied (by a delete, or fewer matches) falls back to the last page that has sessions.
    if (body.sessions.length === 0 && list.offset > 0 && body.total > 0) {
      list.offset = Math.floor((body.total - 1) / PAGE) * PAGE;
      body = await api("/v1/sessions?" + query());
    }
    list.onAuth(true);
    list.total = body.total;
    list.sessions = body.sessions;
    fillSelect($("filter-device"), body.devices.map((device) => [device, device]), "any device");
    fillSelect($("filter-line"), body.lines.map((line) => [line.id, line.name]), "any line");
    const rows = body.sessions.map(sessionRow);
    $("sessions").querySelector("tbody").replaceChildren(...rows);
    const last = Math.min(list.offset + body.sessions.length, body.total);
    $("page-info").textContent = body.total ? `${list.offset + 1}–${last} of ${body.total}` : "no sessions";
    $("page-prev").disabled = list.offset === 0;
    $("page-next").disabled = last >= body.total;
    markOpen();
    return body;
  } catch (error) {
    if (error instanceof APIError && error.status === 401) { list.onAuth(false); return null; }
    throw error;
  }
}

function sessionRow(session) {
  const chip = h("span", { className: "chip", style: { background: safeColour(session.color) } });
  const remove = h("button", { className: "delete", type: "button", title: `Delete session ${session.id}` }, "✕");
  remove.setAttribute("aria-label", `Delete ${session.id}`);
  remove.addEventListener("click", (event) => { event.stopPropagation(); confirmDelete(session); });
  const row = h("tr", { dataset: { id: session.id }, className: session.live ? "live" : "" },
    h("td", { title: session.id }, h("div", { className: "session-id" }, session.live ? h("span", { className: "live-badge", title: "Recording now" }, "LIVE") : null, session.id),
      session.notes ? h("div", { className: "sub" }, session.notes) : null,
      h("div", { className: "sub" }, session.device || "recorded elsewhere")),
    h("td", {}, formatDate(session.startDate), h("div", { className: "sub" }, formatDuration(session.duration))),
    h("td", {}, h("div", {}, session.color ? chip : null, session.railwayName || "–"), h("div", { className: "sub" }, `${session.fixes} fixes`)),
    h("td", {}, remove));
  row.addEventListener("click", () => list.onOpen(session));
  return row;
}

// Marks the open session's row.
export function markOpen() {
  for (const row of $("sessions").querySelectorAll("tbody tr")) row.classList.toggle("selected", row.dataset.id === state.session);
}

export function listed(id) { return list.sessions.find((item) => item.id === id) || null; }

function confirmDelete(session) {
  const dialog = $("confirm-delete");
  $("confirm-text").textContent = `Delete session ${session.id} and its ${session.fixes} fixes? This cannot be undone.`;
  dialog.dataset.id = session.id;
  dialog.showModal();
}

async function deleteConfirmed(event) {
  event.preventDefault();
  const dialog = $("confirm-delete");
  const id = dialog.dataset.id;
  dialog.close();
  try {
    await api(sessionPath(id), { method: "DELETE", headers: { "X-TrainTracker-Viewer": "1" } });
    $("status").textContent = `Deleted ${id}`;
    if (state.session === id) list.onClosed();
    await loadSessions();
  } catch (error) {
    $("status").textContent = `Could not delete ${id}: ${error.message}`;
  }
}

// Wires the list: `onOpen(session)` opens one, `onAuth(loggedIn)` is told when the login
// changes, `onClosed()` when the open session was deleted.
export function startSessionList(onOpen, onAuth, onClosed) {
  Object.assign(list, { onOpen, onAuth, onClosed });
  const reload = () => { list.offset = 0; loadSessions().catch(report); };
  $("search").addEventListener("input", () => { clearTimeout(list.searchTimer); list.searchTimer = setTimeout(reload, SEARCH_WAIT_MS); });
  for (const id of ["filter-live", "filter-device", "filter-line", "filter-from", "filter-to"]) $(id).addEventListener("change", reload);
  $("page-prev").addEventListener("click", () => { list.offset = Math.max(0, list.offset - PAGE); loadSessions().catch(report); });
  $("page-next").addEventListener("click", () => { list.offset += PAGE; loadSessions().catch(report); });
  $("confirm-form").addEventListener("submit", deleteConfirmed);
  $("confirm-cancel").addEventListener("click", () => $("confirm-delete").close());
  clearInterval(list.timer);
  list.timer = setInterval(() => { if (!document.hidden) loadSessions().catch(report); }, LIST_REFRESH_MS);
}

function report(error) { $("status").textContent = "Could not load sessions: " + error.message; }
