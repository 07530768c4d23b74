// The replay viewer: /viewer/ lists battles, /viewer/battles/{id} plays one (a seat token may
// come in the URL's #token= fragment, which never reaches the server's logs), and a replay
// file dropped anywhere on the page is played from the file. /viewer/tournaments/{id},
// /viewer/sets/{id} and /viewer/players/{id} show a tournament, a set and a player.

import { ClockTicker, clockControl, clockNotice, clockStrip } from "./clocks.js";
import { Controls, bindKeys } from "./controls.js";
import { hintsFor, loadGame } from "./games.js";
import { LiveFeed } from "./live.js";
import { showList } from "./list.js";
import { EventLog } from "./log.js";
import { Player } from "./player.js";
import { showPlayer } from "./playerpage.js";
import { renderView } from "./render.js";
import { showSet } from "./setpage.js";
import { ServerSource, readReplayFile } from "./sources.js";
import { showTournament } from "./tournament.js";
import { clear, el, playerName } from "./widgets.js";

const $ = (selector) => document.querySelector(selector);
const VIEW_CACHE = 400;
const REFRESH_MS = 150;
const TOAST_MS = 7000;
const URL_MS = 250;

// A request cancelled because the page left its source is no failure: nothing to report.
const cancelled = (error) => error?.name === "AbortError";

class App {
  constructor() {
    this.source = null;
    this.perspective = "spectator";
    this.timeline = null;
    this.feed = null;
    this.views = new Map();
    this.generation = 0;       // answers asked for under an older source or perspective are dropped
    this.player = new Player((seq) => this.loadView(seq));
    this.ticker = new ClockTicker((view) => this.atLiveHead(view));
    this.log = new EventLog($("#log-panel"), (seq) => this.player.seek(seq));
    this.controls = new Controls($("#controls"), this.player,
      { onFollow: () => this.follow(), onMessage: (text) => this.toast(text) });
    this.player.addEventListener("position", () => this.moved());
    this.player.addEventListener("playing", () => this.controls.updatePlaying());
    this.player.addEventListener("view", (event) => this.show(event.detail));
    this.player.addEventListener("error", (event) => this.fail(event.detail));
    $("#perspective").addEventListener("change", (event) => this.switchTo(event.target.value));
    bindKeys(this.player, this.controls, { follow: () => this.follow(), focusFilter: () => $("#log-filter").focus(),
      toggleHelp: () => { $("#help").hidden = !$("#help").hidden; } });
  }

  async openServer(battleId) {
    const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
    const wanted = new URLSearchParams(window.location.search);
    this.use(new ServerSource(battleId, token));
    this.showPage("battle");
    try {
      const first = await this.source.timeline(token ? null : "spectator");
      let perspective = wanted.get("as") ?? this.source.seat ?? "spectator";
      if (!first.perspectives.includes(perspective)) {
        this.toast(`Viewing as ${perspective} is not open to you here; showing the ${this.source.seat ?? "spectator"} view.`);
        perspective = this.source.seat ?? "spectator";
      }
      await this.load(perspective, Number(wanted.get("seq")) || null);
    } catch (error) {
      this.fail(error);
    }
  }

  async openFile(file) {
    try {
      const source = await readReplayFile(file);
      this.use(source);
      window.history.pushState(null, "", "/viewer/");
      this.showPage("battle");
      await this.load("spectator", null);
      source.report = await source.verify();
      if (this.source === source) this.fileBadge();
    } catch (error) {
      this.warn(error);
    }
  }

  // Leave the current source for another. Nothing the old one still has under way may touch
  // the page afterwards: its requests are cancelled (and fail as AbortError, which nobody
  // reports), its live stream, playback and pending address-bar update are stopped.
  use(source) {
    this.source?.close();
    this.stopFeed();
    this.player.stop();
    clearTimeout(this.urlTimer);
    this.generation += 1;
    this.source = source;
  }

  // (Re)load everything for a perspective: nothing seen under another one is kept.
  async load(perspective, seq) {
    this.stopFeed();
    this.perspective = perspective;
    this.generation += 1;
    const generation = this.generation;
    this.views.clear();
    clear($("#state"));
    const [timeline, events] = await Promise.all([this.source.timeline(perspective), this.source.events(perspective)]);
    await loadGame(timeline.ruleset);        // its panel, if it has one, before anything is drawn
    if (generation !== this.generation) return;
    this.timeline = timeline;
    this.renderTitle();
    this.log.reset(events, timeline);
    const live = this.source.kind === "server" && !timeline.ended;
    this.controls.live = live;
    this.player.seq = 0;
    this.player.following = false;
    this.player.setTimeline(timeline);
    this.controls.drawTicks();
    this.player.seek(seq ?? timeline.seq, { follow: live && !seq });
    if (live) this.startFeed(events.length + 1);
  }

  async loadView(seq) {
    const generation = this.generation;
    let view = this.views.get(seq);
    if (!view) {
      view = await this.source.view(this.perspective, seq);
      if (generation !== this.generation) return null;
      this.views.set(seq, view);
      if (this.views.size > VIEW_CACHE) this.views.delete(this.views.keys().next().value);
    }
    return view;
  }

  show(view) {
    if (!view) return;
    const panel = $("#state");
    panel.dataset.seq = view.seq;
    const clocks = clockStrip(view, clockNotice(this.log.events, view), clockControl(this.log.events));
    clear(panel, clocks, renderView(view, hintsFor(view.ruleset)));
    this.ticker.attach(clocks, view);
  }

  // Whether `view` is the running battle as it stands now, so its running clocks tick (any
  // other seq shows them as recorded then).
  atLiveHead(view) {
    const { seq, head } = this.player;
    return this.source?.kind === "server" && this.controls.live && !view.outcome && view.seq === seq && seq >= head;
  }

  moved() {
    this.controls.update();
    this.log.highlight(this.player.seq);
    if (this.source?.kind === "server" && this.player.seq > 0) {
      // Once things settle: browsers throttle a flood of history updates (as in playback).
      clearTimeout(this.urlTimer);
      this.urlTimer = setTimeout(() => {
        const query = new URLSearchParams({ as: this.perspective, seq: this.player.seq });
        window.history.replaceState(null, "", `${window.location.pathname}?${query}${window.location.hash}`);
      }, URL_MS);
    }
  }

  follow() {
    this.player.seek(this.player.head, { follow: this.controls.live });
  }

  switchTo(perspective) {
    this.player.pause();
    this.load(perspective, this.player.seq).catch((error) => this.fail(error));
  }

  startFeed(from) {
    this.feed = new LiveFeed((next) => this.source.streamUrl(this.perspective, next), from, {
      onEvent: (event) => {
        this.log.append([event]);
        this.refreshSoon();
      },
      onEnd: () => this.refreshSoon(),
      onError: (reason) => this.toast(`Live stream refused: ${reason}`, "error"),
    });
    this.feed.start();
  }

  stopFeed() {
    this.feed?.stop();
    this.feed = null;
    clearTimeout(this.refreshTimer);
  }

  // New events arrived: fetch the marks and the head once the burst is over.
  refreshSoon() {
    clearTimeout(this.refreshTimer);
    const generation = this.generation;
    this.refreshTimer = setTimeout(async () => {
      try {
        const timeline = await this.source.timeline(this.perspective);
        if (generation !== this.generation) return;
        this.timeline = timeline;
        this.controls.live = !timeline.ended;
        this.log.setMarks(timeline);
        this.player.setTimeline(timeline);
        this.player.following = this.player.following && !timeline.ended;
        this.controls.drawTicks();
        this.renderTitle();
      } catch (error) {
        this.warn(error);
      }
    }, REFRESH_MS);
  }

  renderTitle() {
    const t = this.timeline;
    const players = Object.entries(t.players).map(([seat, name]) => `${playerName(name)} (${seat})`).join(" vs ");
    clear($("#title"), el("span", { class: "ruleset", text: t.ruleset }), el("span", { text: players }));
    if (this.source.kind === "file") this.fileBadge();
    else this.setBadge(t.ended ? "ended" : "live", t.ended ? "The battle has ended." : "Following the battle live.",
      t.ended ? "ended" : "live");
    this.renderPerspectives();
  }

  // Every seat and the omniscient view are listed; those not open yet are disabled and say why.
  renderPerspectives() {
    const t = this.timeline;
    const label = (p) => (p === "spectator" ? "Spectator" : p === "all" ? "Omniscient" : `${p} · ${t.players[p]}`);
    const why = t.ended ? "needs that seat's token (private battle)" : "needs that seat's token until the battle ends";
    const options = ["spectator", ...t.seats, "all"].map((p) => el("option", {
      value: p, text: label(p), selected: p === this.perspective, disabled: !t.perspectives.includes(p),
      title: t.perspectives.includes(p) ? null : p === "all" ? "open once the battle has ended" : why }));
    clear($("#perspective"), options);
  }

  fileBadge() {
    const { name, report } = this.source;
    if (!report) return this.setBadge(`file: ${name}`, "Verifying the file…", "file");
    const ok = report.status === "ok";
    const why = ok ? "the hash chain, the seed and the re-simulation all check out" : report.reason ?? "";
    const failed = report.seq ? `${report.status} at seq ${report.seq}` : report.status;
    return this.setBadge(`${name} · ${ok ? "verified" : failed}`, `${name}: ${why}`, ok ? "ok" : "bad");
  }

  setBadge(text, title, kind) {
    const badge = $("#status-badge");
    badge.textContent = text;
    badge.title = title;
    badge.className = `badge ${kind}`;
    badge.hidden = false;
  }

  // A tournament, set or player page: read once from the API and drawn by its module, which
  // says in the page itself when there is nothing to show.
  async openInfo(name, show, id) {
    this.showPage(name);
    const shown = await show($(`#${name}-page`), id);
    if (!shown) return;
    document.title = `${shown.name} · Ringside viewer`;
    clear($("#title"), shown.title);
    if (shown.badge) this.setBadge(shown.badge.text, shown.badge.title, shown.badge.kind);
  }

  showPage(name) {
    if (name !== "list") this.leaveList?.();
    for (const main of document.querySelectorAll("body > main")) main.hidden = main.id !== `${name}-page`;
    $("#perspective-box").hidden = name !== "battle";
  }

  fail(error) {
    if (cancelled(error)) return;
    clear($("#state"), el("p", { class: "error-state", text: error.message }));
    this.toast(error.message, "error");
  }

  warn(error) {
    if (!cancelled(error)) this.toast(error.message, "error");
  }

  toast(text, kind = "info") {
    const node = $("#toast");
    node.textContent = text;
    node.className = `toast ${kind}`;
    node.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { node.hidden = true; }, TOAST_MS);
  }
}

function installDrop(onFile) {
  const overlay = $("#drop-overlay");
  let depth = 0;
  document.addEventListener("dragenter", (event) => {
    event.preventDefault();
    depth += 1;
    overlay.hidden = false;
  });
  document.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) overlay.hidden = true;
  });
  document.addEventListener("dragover", (event) => event.preventDefault());
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    const file = event.dataTransfer?.files?.[0];
    if (file) onFile(file);
  });
}

function boot() {
  const app = new App();
  installDrop((file) => app.openFile(file));
  $("#file-input").addEventListener("change", (event) => {
    const file = event.target.files?.[0];
    if (file) app.openFile(file);
    event.target.value = "";
  });
  $("#help-button").addEventListener("click", () => { $("#help").hidden = !$("#help").hidden; });
  $("#help-close").addEventListener("click", () => { $("#help").hidden = true; });
  const path = window.location.pathname;
  const route = routes(app).find(([pattern]) => pattern.test(path));
  if (route) {
    route[1](idOf(path.match(route[0])[1]));
  } else {
    app.showPage("list");
    app.leaveList = showList($("#list-page"), (error) => app.warn(error));
  }
}

function routes(app) {
  return [
    [/^\/viewer\/battles\/([^/]+)\/?$/, (id) => app.openServer(id)],
    [/^\/viewer\/tournaments\/([^/]+)\/?$/, (id) => app.openInfo("tournament", showTournament, id)],
    [/^\/viewer\/sets\/([^/]+)\/?$/, (id) => app.openInfo("set", showSet, id)],
    [/^\/viewer\/players\/([^/]+)\/?$/, (id) => app.openInfo("player", showPlayer, id)],
  ];
}

// A path segment as typed: one that is no valid percent-encoding is taken as it stands (the
// API then says it knows no such id) rather than failing the page.
function idOf(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

boot();
