// The timeline bar (scrubber, play/pause, speed, steps, jump to turn) and the keyboard.

import { SPEEDS } from "./player.js";
import { clear, el } from "./widgets.js";

export class Controls {
  constructor(root, player, { onFollow, onMessage }) {
    this.player = player;
    this.slider = root.querySelector("#scrubber");
    this.ticks = root.querySelector("#ticks");
    this.position = root.querySelector("#position");
    this.playButton = root.querySelector("#play");
    this.speed = root.querySelector("#speed");
    this.followButton = root.querySelector("#follow");
    this.turnInput = root.querySelector("#jump-turn");
    this.onMessage = onMessage;
    this.live = false;
    for (const speed of SPEEDS) this.speed.append(el("option", { value: speed, text: `${speed}×`, selected: speed === 1 }));
    this.bind(root, onFollow);
  }

  bind(root, onFollow) {
    const player = this.player;
    // Buttons keep the keyboard focus where it was, so Space stays play/pause after a click.
    root.querySelectorAll("button").forEach((b) => b.addEventListener("mousedown", (e) => e.preventDefault()));
    root.querySelectorAll("button[data-step]").forEach((b) => b.addEventListener("click",
      () => player.step(b.dataset.step, Number(b.dataset.dir))));
    this.playButton.addEventListener("click", () => player.toggle());
    this.followButton.addEventListener("click", onFollow);
    this.speed.addEventListener("change", () => player.setSpeed(Number(this.speed.value)));
    this.slider.addEventListener("input", () => player.seek(Number(this.slider.value)));
    root.querySelector("#jump-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const turn = Number(this.turnInput.value);
      if (!player.jumpToTurn(turn)) this.onMessage(`There is no turn ${this.turnInput.value || "?"} (yet).`);
    });
  }

  changeSpeed(step) {
    const at = SPEEDS.indexOf(this.player.speed);
    const speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + step))];
    this.speed.value = String(speed);
    this.player.setSpeed(speed);
  }

  update() {
    const { seq, head, following } = this.player;
    this.slider.max = String(Math.max(head, 1));
    this.slider.value = String(seq);
    this.slider.disabled = head < 1;
    const turn = this.player.turnAt(seq);
    const lastTurn = this.player.turns.at(-1)?.turn;
    this.position.textContent = `seq ${seq} / ${head}${turn !== null ? ` · turn ${turn}${lastTurn ? ` of ${lastTurn}` : ""}` : ""}`;
    this.followButton.hidden = !this.live;
    this.followButton.classList.toggle("on", following);
    this.followButton.textContent = following ? "● Following live" : "Go live ▸";
  }

  updatePlaying() {
    const playing = this.player.playing;
    this.playButton.textContent = playing ? "❚❚ Pause" : "▶ Play";
    this.playButton.setAttribute("aria-pressed", String(playing));
  }

  drawTicks() {
    const { turns, head } = this.player;
    const span = Math.max(head - 1, 1);
    const every = Math.max(1, Math.ceil(turns.length / 16));
    clear(this.ticks, turns.map((t, i) => {
      const tick = el("span", { class: i % every === 0 ? "tick labelled" : "tick", data: { turn: t.turn } });
      tick.style.left = `${(((t.seq - 1) / span) * 100).toFixed(2)}%`;
      return tick;
    }));
  }
}

const TYPING = "input[type=text], input[type=search], input[type=number], select, textarea";

// Arrows step (Shift: by action), Up/Down or PageUp/PageDown step by turn, Space plays,
// Home/End go to the ends, t jumps to a turn, / filters the log, + and - change the speed;
// Escape leaves a text field.
export function bindKeys(player, controls, { follow, focusFilter, toggleHelp }) {
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target.matches?.(TYPING)) {
      if (event.key === "Escape") target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === " " && target.matches?.("button, input[type=checkbox], summary, a")) return;
    const keys = {
      ArrowLeft: () => player.step(event.shiftKey ? "action" : "event", -1),
      ArrowRight: () => player.step(event.shiftKey ? "action" : "event", 1),
      ArrowUp: () => player.step("turn", -1), PageUp: () => player.step("turn", -1),
      ArrowDown: () => player.step("turn", 1), PageDown: () => player.step("turn", 1),
      Home: () => player.seek(1), End: follow, " ": () => player.toggle(),
      t: () => controls.turnInput.focus(), "/": focusFilter, "?": toggleHelp,
      "+": () => controls.changeSpeed(1), "=": () => controls.changeSpeed(1), "-": () => controls.changeSpeed(-1),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
}
