// Follows a running battle over the WebSocket stream: catch-up from `from`, then live.
// After a drop it reconnects from the next seq it lacks, so nothing is missed or repeated.

const RETRY_MS = 1000;

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
    const event = JSON.parse(text);
    if (event.seq !== this.next) return;
    this.next += 1;
    this.handlers.onEvent(event);
  }

  closed(event) {
    if (this.stopped) return;
    if (event.code === 1000) this.handlers.onEnd();
    else if (event.code >= 4000) this.handlers.onError(event.reason || `refused (${event.code})`);
    else this.retry = setTimeout(() => this.start(), RETRY_MS);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.socket) this.socket.close();
  }
}
