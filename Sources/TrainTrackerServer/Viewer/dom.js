// DOM and text helpers of the Session Viewer. Everything shown comes from phones and feeds:
// it reaches the page only as text (h() and s() build nodes; nothing is written as HTML).

// An element with properties (className, title, dataset entries as data-*) and children:
// strings become text nodes, so no value is ever parsed as HTML.
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "style") Object.assign(element.style, value);
    else element[key] = value;
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// An SVG element with attributes and children (strings as text nodes).
export function s(tag, attributes, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value != null) element.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export const $ = (id) => document.getElementById(id);

// A colour from the data (a railway's), as drawn on white: a plain hex colour (#RGB, #RRGGBB,
// with or without alpha) kept, but one paler than 0.75 darkened to 0.6 (Caltrain's #DCDDDE
// would vanish); anything else grey. ColourLanguage.drawable does the same (a test checks).
export function safeColour(colour) {
  const text = typeof colour === "string" ? colour : "";
  if (!/^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(text)) return "#666666";
  const digits = text.slice(1);
  const short = digits.length <= 4;
  const channels = [0, 1, 2].map((index) =>
    parseInt(short ? digits[index] + digits[index] : digits.slice(2 * index, 2 * index + 2), 16));
  const lightness = (0.299 * channels[0] + 0.587 * channels[1] + 0.114 * channels[2]) / 255;
  const scale = lightness > 0.75 ? 0.6 / lightness : 1;
  return "#" + channels.map((channel) => Math.round(channel * scale).toString(16).padStart(2, "0")).join("");
}

// "OuterLoop" → "Outer Loop", "JR-East.RapidService" → "Rapid Service": the last part of an
// id, its words apart.
export function prettyID(id) {
  if (id == null || id === "") return "–";
  const last = String(id).split(".").pop();
  return last.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
}

// Minutes and seconds, or hours and minutes.
export function formatDuration(seconds) {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return "–";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

// The viewer shows times in UTC, on the timetables' clock ("network": their IANA zone
// `timeZone`, daylight saving included, or failing that `offset` seconds ahead of UTC) or in
// the browser's zone ("local"): the header's choice.
export const clock = { zone: "UTC", offset: 0, timeZone: null };

// `name` if the browser knows it as a time zone ("America/Los_Angeles"), else null: the
// server's word is not trusted to be one.
export function knownTimeZone(name) {
  if (typeof name !== "string" || name.length === 0 || name.length > 64) return null;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: name });
    return name;
  } catch (_) {
    return null;
  }
}

// The instant to format and the zone to format it in.
function shifted(iso) {
  const date = new Date(iso);
  if (clock.zone === "network") {
    if (clock.timeZone) return [date, clock.timeZone];
    return [new Date(date.getTime() + clock.offset * 1000), "UTC"];
  }
  return [date, clock.zone === "UTC" ? "UTC" : undefined];
}

// "08:12:05" (or "08:12" without seconds) of an ISO time, in the chosen zone.
export function formatTime(iso, withSeconds = true) {
  const [date, timeZone] = shifted(iso);
  if (Number.isNaN(date.getTime())) return "–";
  const options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone };
  if (withSeconds) options.second = "2-digit";
  return new Intl.DateTimeFormat("en-GB", options).format(date);
}

// "2025-09-20 08:12" of an ISO time, in the chosen zone.
export function formatDate(iso) {
  const [date, timeZone] = shifted(iso);
  if (Number.isNaN(date.getTime())) return "–";
  const day = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).format(date);
  return `${day} ${formatTime(iso, false)}`;
}

// "UTC+09:00" for an offset in seconds.
export function offsetName(seconds) {
  const minutes = Math.round(Math.abs(seconds) / 60);
  const pad = (value) => String(value).padStart(2, "0");
  return `UTC${seconds < 0 ? "−" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

// The zone's name for headers: "UTC", the timetables' ("Asia/Tokyo", or "UTC+09:00" without a
// zone) or the browser's short one, e.g. "JST".
export function zoneName() {
  if (clock.zone === "UTC") return "UTC";
  if (clock.zone === "network") return clock.timeZone ?? offsetName(clock.offset);
  const part = new Intl.DateTimeFormat("en-US", { timeZoneName: "short" }).formatToParts(new Date())
    .find((item) => item.type === "timeZoneName");
  return part ? part.value : "local";
}

// The one colour language of TrainTracker (viewer, SVG pictures, docs/colours.md): the phases
// of the focus station and of a station's story, and speed in shades of one green.
export const colours = {
  next: "#2166AC", soon: "#E08214", now: "#B2182B",
  approaching: "#E08214", visiting: "#B2182B", departure: "#5E3C99", visited: "#B2182B", passed: "#8C8C8C",
  unreached: "#D9D9D9",
};

// Speed in one green: pale when stopped, dark at 25 m/s and above; grey when unknown.
export function speedColour(speed) {
  if (speed == null || !Number.isFinite(speed) || speed < 0) return "#9E9E9E";
  const t = Math.max(0, Math.min(1, speed / 25));
  const [from, to] = [[199, 233, 192], [0, 68, 27]];
  return `rgb(${from.map((value, index) => Math.round(value + (to[index] - value) * t)).join(",")})`;
}
