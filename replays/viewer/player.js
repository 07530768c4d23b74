// Where the viewer is in the battle, and how it moves: seek, step by event, action or turn,
// jump to a turn, play at a speed, follow the head of a live battle.
//
// Events: "position" (the seq changed), "view" (a view arrived), "playing", "error".

const BASE_MS = 800;          // one event per tick at 1x
export const SPEEDS = [0.5, 1, 2, 4, 8, 16];

export class Player extends EventTarget {
  constructor(loadView) {
    super();
    this.loadView = loadView;  // (seq) -> Promise<view>
    this.seq = 0;
    this.head = 0;
    this.actions = [];
    this.turns = [];
    this.playing = false;
    this.speed = 1;
    this.following = false;    // live: keep to the head as it grows
    this.wanted = null;
    this.busy = false;
    this.timer = null;
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  setTimeline({ seq, actions, turns }) {
    const wasAtHead = this.seq >= this.head;
    this.head = seq;
    this.actions = actions;
    this.turns = turns;
    if (this.following && wasAtHead) this.seek(seq, { follow: true });
    else this.emit("position");
  }

  seek(seq, { follow = false } = {}) {
    const target = Math.max(Math.min(seq, this.head), Math.min(1, this.head));
    this.following = follow || (this.following && target >= this.head);
    if (target === this.seq) return;
    this.seq = target;
    this.emit("position");
    this.reload();
  }

  // Ask for the view at the current seq; while one is loading, only the newest wish waits.
  reload() {
    if (this.seq < 1) return;
    this.wanted = this.seq;
    if (!this.busy) this.pump();
  }

  async pump() {
    this.busy = true;
    while (this.wanted !== null) {
      const seq = this.wanted;
      this.wanted = null;
      try {
        this.emit("view", await this.loadView(seq));
      } catch (error) {
        this.emit("error", error);
      }
    }
    this.busy = false;
  }

  step(unit, direction) {
    if (unit === "event") return this.seek(this.seq + direction);
    const marks = unit === "action" ? this.actions : this.turns.map((t) => t.seq);
    const found = direction > 0 ? marks.find((s) => s > this.seq) : [...marks].reverse().find((s) => s < this.seq);
    return this.seek(found ?? (direction > 0 ? this.head : 1));
  }

  jumpToTurn(turn) {
    const found = this.turns.find((t) => t.turn === turn);
    if (found) this.seek(found.seq);
    return Boolean(found);
  }

  turnAt(seq) {
    let turn = null;
    for (const mark of this.turns) {
      if (mark.seq > seq) break;
      turn = mark.turn;
    }
    return turn;
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    if (this.seq >= this.head && !this.following) this.seek(1);
    this.playing = true;
    this.emit("playing");
    this.schedule();
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    this.emit("playing");
  }

  // The page left this battle: no more ticks, and the view still wanted there is forgotten.
  stop() {
    this.pause();
    this.wanted = null;
  }

  setSpeed(speed) {
    this.speed = speed;
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    if (this.playing) this.timer = setTimeout(() => this.tick(), BASE_MS / this.speed);
  }

  // Playback waits for the view to keep up, and at the end stops (or, live, waits for more).
  tick() {
    if (!this.playing) return;
    if (!this.busy) {
      if (this.seq < this.head) this.seek(this.seq + 1, { follow: this.following });
      else if (!this.following) return this.pause();
    }
    return this.schedule();
  }
}
