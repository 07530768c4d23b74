// Where a battle comes from: a battle stored on the server (maybe still running) or a replay
// file dropped on the page. Both give the same three things for a chosen perspective: the
// timeline (the perspectives open, the last visible seq, action and turn marks), the event
// log, and the view at any seq.

import { getJSON, postBytes } from "./api.js";

// Every request a source makes can be cancelled at once, when the page leaves the source.
class Source {
  constructor(kind) {
    this.kind = kind;
    this.requests = new AbortController();
  }

  get signal() {
    return this.requests.signal;
  }

  close() {
    this.requests.abort();
  }
}

export class ServerSource extends Source {
  constructor(battleId, token) {
    super("server");
    this.battleId = battleId;
    this.token = token || null;
    this.seat = null;          // the token's seat, once the server has said which
    this.base = `/battles/${encodeURIComponent(battleId)}`;
  }

  // The seat token goes only with requests made as its seat; any other perspective is asked
  // for without it, so the server decides (a seat's view needs its token until the end).
  auth(perspective) {
    if (this.token && (perspective === null || perspective === this.seat)) return { token: this.token };
    return { query: { as: perspective ?? "spectator" } };
  }

  async timeline(perspective) {
    const { token, query } = this.auth(perspective);
    const found = await getJSON(`/viewer/api${this.base}/timeline`, { token, query, signal: this.signal });
    this.seat = found.seat;
    return found;
  }

  async events(perspective, from = 1) {
    const { token, query } = this.auth(perspective);
    const found = await getJSON(`${this.base}/events`, { token, query: { ...query, from }, signal: this.signal });
    return found.events;
  }

  view(perspective, seq) {
    const { token, query } = this.auth(perspective);
    return getJSON(`${this.base}/at/${seq}`, { token, query, signal: this.signal });
  }

  streamUrl(perspective, from) {
    const url = new URL(`${this.base}/stream`, window.location.origin);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("from", from);
    if (this.token && perspective === this.seat) url.searchParams.set("token", this.token);
    return url.toString();
  }
}

export class FileSource extends Source {
  constructor(name, bytes, header, events) {
    super("file");
    this.name = name;
    this.bytes = bytes;        // as dropped (JSONL or gzip); the server reads either
    this.header = header;
    this.log = events;
    this.battleId = header.battle_id;
    this.seat = null;
    this.marks = null;
    this.report = null;        // the verify report, once the server has checked the file
  }

  async timeline() {
    this.marks = this.marks ?? (await postBytes("/replays/timeline", this.bytes, { signal: this.signal }));
    return this.marks;
  }

  async events() {
    return this.log;
  }

  view(perspective, seq) {
    return postBytes("/replays/at", this.bytes, { query: { seq, as: perspective }, signal: this.signal });
  }

  verify() {
    return postBytes("/replays/verify", this.bytes, { signal: this.signal });
  }
}

// A dropped file: gzip is recognised by its magic bytes and unpacked in the browser.
export async function readReplayFile(file) {
  const raw = new Uint8Array(await file.arrayBuffer());
  const gzipped = raw[0] === 0x1f && raw[1] === 0x8b;
  const bytes = gzipped ? await gunzip(raw) : raw;
  const lines = new TextDecoder().decode(bytes).split("\n").filter((line) => line.trim());
  let header;
  let events;
  try {
    header = JSON.parse(lines[0] ?? "null");
    events = lines.slice(1).map((line) => JSON.parse(line));
  } catch {
    throw new Error(`${file.name}: not a replay file (a line is not JSON; truncated or corrupted?)`);
  }
  if (header?.format !== "ringside-replay") throw new Error(`${file.name}: not a ringside replay (no header)`);
  return new FileSource(file.name, raw, header, events);
}

async function gunzip(raw) {
  try {
    const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    throw new Error("broken gzip data");
  }
}
