// Follows a running battle over the WebSocket stream: catch-up from `from`, then live. Each
// message is a frame, the JSON array of one batch's events (or of a run of them from the store).
// After a drop it reconnects from the next seq it lacks, so nothing is missed or repeated.

const RETRY_MS = 1000;
const TOO_FAR_BEHIND = 4408;   // the server dropped a reader that fell behind: resume at once

export class LiveFeed {
  constructor(urlFor, from, { onEvent, onEnd, onError }) {
    this.urlFor = urlFor;
    this.next = from;
    this.handlers = { onEvent, onEnd, onError };
    this.stopped = false;
    this.socket = null;
    this.retry = null;
  }

  start() {
    this.stopped = false;
    const socket = new WebSocket(this.urlFor(this.next));
    socket.binaryType = "arraybuffer";
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (event) => this.closed(event);
    this.socket = socket;
  }

  receive(data) {
    if (this.stopped) return;   // already queued when the page left the battle
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    for (const event of JSON.parse(text)) {
      if (event.seq !== this.next) continue;   // one it already has
      this.next += 1;
      this.handlers.onEvent(event);
    }
  }

  closed(event) {
    if (this.stopped) return;
    if (event.code === 1000) this.handlers.onEnd();
    else if (event.code === TOO_FAR_BEHIND) this.start();
    else if (event.code >= 4000) this.handlers.onError(event.reason || `refused (${event.code})`);
    else this.retry = setTimeout(() => this.start(), RETRY_MS);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.socket) this.socket.close();
  }
}
