// Talking to the Ringside API. Every refusal comes back as {error: {code, message, details}}.

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
  try {
    response = await fetch(url, { method, headers, body, cache: "no-store", signal });
  } catch (err) {
    signal?.throwIfAborted();
    throw new ApiError(0, "network", `cannot reach the server (${err.message})`);
  }
  const payload = await response.json().catch(() => null);
  signal?.throwIfAborted();
  if (!response.ok) {
    const error = payload?.error ?? {};
    throw new ApiError(response.status, error.code ?? "http_error", error.message ?? `HTTP ${response.status}`,
      error.details ?? {});
  }
  return payload;
}

export const getJSON = (path, options) => request("GET", path, options);
export const postBytes = (path, bytes, options = {}) => request("POST", path, { ...options, body: bytes });
