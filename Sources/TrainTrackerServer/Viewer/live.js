// Live without reloading: the viewer listens to /v1/sessions/{id}/live?with=fix (server-sent
// events over fetch, so the stream can be stopped at once) and hands each answer, with its
// fix, to `onAnswer`; answers that come while the session loads wait in a queue.

import { sessionPath } from "./api.js";

let current = null;

export function stopLive() {
  if (current) { current.controller.abort(); current = null; }
}

// Starts listening to session `id`; `onAnswer({fix, result})` for each answer, `onEnd(reason)`
// when the stream ends. Returns a promise that resolves once the server greets the listener.
export function startLive(id, onAnswer, onEnd) {
  stopLive();
  const controller = new AbortController();
  const listening = { controller, queue: [], ready: false, onAnswer };
  current = listening;
  let greeted;
  const greeting = new Promise((resolve) => { greeted = resolve; });
  (async () => {
    try {
      const response = await fetch(`${sessionPath(id)}/live?with=fix`, { credentials: "same-origin", signal: controller.signal });
      if (!response.ok) { greeted(); onEnd(`${response.status} ${response.statusText}`); return; }
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
          if (event.startsWith(": listening")) greeted();
          if (event.startsWith("data: ")) {
            const answer = JSON.parse(event.slice(6));
            if (listening.ready) onAnswer(answer); else listening.queue.push(answer);
          }
          if (event.startsWith("event: end")) {
            let reason = "ended";
            try { reason = JSON.parse(event.split("\ndata: ")[1]).reason; } catch (_) { /* keep "ended" */ }
            onEnd(reason);
          }
        }
      }
    } catch (error) {
      if (error.name !== "AbortError") onEnd(error.message);
    } finally {
      greeted();
      if (current === listening) current = null;
    }
  })();
  return greeting;
}

// The session has loaded: answers queued meanwhile are handed on, and later ones at once.
export function liveReady() {
  if (!current) return;
  current.ready = true;
  for (const answer of current.queue.splice(0)) current.onAnswer(answer);
}

export function isLive() { return current != null; }
