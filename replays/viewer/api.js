// Talking to the Ringside API. Every refusal comes back as {error: {code, message, details}}.
// Every answer also tells the page the server's time (servertime.js), which live clocks tick by.

import { browserNow, noteAnswer } from "./servertime.js";

export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

// A request given an AbortSignal that fires always fails with the signal's AbortError, even
// when the answer was already on its way: a source the page has left never half-succeeds.
export async function request(method, path, { token, query, body, signal } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, value);
  }
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) headers["Content-Type"] = "application/octet-stream";
  let response;
  const sentAt = browserNow();
  try {
    response = await fetch(url, { method, headers, body, cache: "no-store", signal });
  } catch (err) {
    signal?.throwIfAborted();
    throw new ApiError(0, "network", `cannot reach the server (${err.message})`);
  }
  const receivedAt = browserNow();
  const payload = await response.json().catch(() => null);
  signal?.throwIfAborted();
  noteAnswer({ nowMs: payload?.now_ms, date: response.headers.get("Date") }, sentAt, receivedAt);
  if (!response.ok) {
    const error = payload?.error ?? {};
    throw new ApiError(response.status, error.code ?? "http_error", error.message ?? `HTTP ${response.status}`,
      error.details ?? {});
  }
  return payload;
}

export const getJSON = (path, options) => request("GET", path, options);
export const postBytes = (path, bytes, options = {}) => request("POST", path, { ...options, body: bytes });

const contents = new Map();                  // ruleset id -> its content, once GET /rulesets answered

// A ruleset panel's renderer that draws with the ruleset's content (names and texts), read
// once from GET /rulesets: until it arrives, or if it cannot be read, `draw` gets {} and ids
// stand in for names; the panel is drawn again when it comes.
export function withContent(rulesetId, draw) {
  return (view, hints = {}) => {
    const entry = contents.get(rulesetId) ?? { content: null, loading: null };
    contents.set(rulesetId, entry);
    const node = draw(view, hints, entry.content ?? {});
    if (entry.content === null) {
      entry.loading ??= getJSON("/rulesets")
        .then((found) => { entry.content = found.rulesets.find((r) => r.id === rulesetId)?.content ?? {}; })
        .catch(() => { entry.content = {}; });
      entry.loading.then(() => {
        if (node.isConnected) node.replaceWith(draw(view, hints, entry.content));
      });
    }
    return node;
  };
}
