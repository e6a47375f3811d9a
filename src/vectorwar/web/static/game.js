// The game page: live scene over the WebSocket, the map, orders, cards, log, result and replay.

import { Api, LiveSocket, pageParams } from "./api.js";
import { HexMap } from "./hexmap.js";
import { OrdersPanel } from "./orders.js";
import { ViewToggle } from "./view3d.js";
import { h, renderCards, renderLog, renderResult, renderStatus, sideChip, sideColours } from "./panels.js";

const $ = (id) => document.getElementById(id);

const { game, token } = pageParams();
const api = new Api(token);
let live = null; // the newest live scene
let mode = "live"; // or "replay"
let replayStep = 0;

const map = new HexMap($("map"), {
  onCounterClick: (id) => {
    if (mode === "live" && orders.pickTarget(id)) return;
    const card = document.querySelector(`.card[data-title^="${CSS.escape(id)}:"], .card[data-title="${CSS.escape(id)}"]`);
    if (card) {
      card.scrollIntoView({ block: "nearest", behavior: "smooth" });
      card.classList.add("flash");
      setTimeout(() => card.classList.remove("flash"), 900);
    }
  },
  onHexClick: (hex) => {
    if (mode === "live") orders.pickHex(hex);
  },
  onViewKey: () => view3d.toggle(),
});
const view3d = new ViewToggle($("view-3d"), map, game);

function showError(err) {
  const box = $("error");
  if (!err) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.textContent = err.message || String(err);
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => (box.hidden = true), 8000);
}

const orders = new OrdersPanel($("orders"), {
  api,
  game,
  map,
  onScene: (scene) => acceptLive(scene),
  onError: showError,
});

function renderLegend(scene) {
  const colours = sideColours(scene);
  const items = (scene.counters || [])
    .filter((c) => c.velocity)
    .map((c) =>
      h(
        "li",
        { dataset: { ship: c.id } },
        sideChip(c.label || c.id, colours[c.side]),
        " ",
        h("span", { class: "velocity" }, c.velocity),
        c.facing ? h("span", { class: "facing-note" }, ` facing ${c.facing}`) : null,
      ),
    );
  $("velocity-legend").replaceChildren(items.length ? h("ul", {}, ...items) : "");
}

/** Draw a scene; in replay mode the orders panel stays empty because nothing can be ordered. */
function draw(scene) {
  const colours = sideColours(scene);
  const scenarioTitle = scene.scenario ? scene.scenario.title : "";
  $("title").textContent = `${scenarioTitle}`;
  $("title").title = `${scene.system_title || scene.system} · game ${scene.game || game}`;
  document.title = `${scenarioTitle} · ${scene.system_title || scene.system} · vectorwar`;
  document.body.dataset.step = String(scene.step);
  document.body.dataset.over = scene.result ? "true" : "false";
  view3d.choose(scene);
  map.render(scene);
  renderStatus($("status"), scene, mode);
  renderLegend(scene);
  renderCards($("cards"), scene.cards, colours);
  renderLog($("log"), scene.events);
  renderResult($("result"), scene.result, colours);
  if (mode === "live") {
    orders.update(scene);
  } else {
    orders.clear();
    $("orders").replaceChildren(
      h("p", { class: "hint replay-note" }, `Replay at step ${scene.step}. Orders are given in the live game.`),
    );
  }
}

function acceptLive(scene) {
  // A push can overtake the answer to our own order; never go back to an older scene.
  if (live && scene.step < live.step) return;
  live = scene;
  const slider = $("replay-step");
  slider.max = String(scene.step);
  if (mode === "live") draw(scene);
  else refreshTimeline();
}

// Each resolved batch's clock ({step, clock, turn, segment}); fetched when replay opens and
// again whenever the live game has moved past it.
let timeline = [];

async function refreshTimeline() {
  if (live && timeline.length >= live.step) return;
  try {
    timeline = (await api.timeline(game)).steps || [];
  } catch (err) {
    showError(err);
  }
  updateReplayLabel();
}

/** Words for the moment replay step `step` shows: the position after that many batches. */
function momentOf(step) {
  if (step === 0) return "before the first order";
  const batch = timeline[step - 1];
  return batch ? `after ${batch.clock}` : "";
}

function updateReplayLabel() {
  const moment = momentOf(replayStep);
  $("replay-label").textContent = `${replayStep} / ${live ? live.step : 0}${moment ? ` · ${moment}` : ""}`;
}

/** Steps at which a turn begins (the first batch of each turn), and the end of the game so far. */
function turnStarts() {
  const starts = [0];
  for (let s = 1; s < timeline.length; s++) {
    if (timeline[s].turn !== timeline[s - 1].turn) starts.push(s);
  }
  starts.push(live ? live.step : timeline.length);
  return starts;
}

function jumpTurn(direction) {
  const starts = turnStarts();
  const target =
    direction > 0
      ? starts.find((s) => s > replayStep)
      : [...starts].reverse().find((s) => s < replayStep);
  if (target !== undefined) showReplay(target);
}

let replayToken = 0;
async function showReplay(step) {
  replayStep = Math.max(0, Math.min(step, live ? live.step : 0));
  $("replay-step").value = String(replayStep);
  updateReplayLabel();
  const mine = ++replayToken;
  try {
    const scene = await api.replay(game, replayStep);
    if (mine !== replayToken || mode !== "replay") return;
    document.body.dataset.replayStep = String(replayStep);
    draw(scene);
  } catch (err) {
    showError(err);
  }
}

function enterReplay() {
  if (!live) return;
  mode = "replay";
  document.body.dataset.mode = "replay";
  $("replay-bar").hidden = false;
  $("replay-toggle").setAttribute("aria-pressed", "true");
  $("replay-step").max = String(live.step);
  showReplay(live.result ? 0 : live.step);
  refreshTimeline();
  $("replay-step").focus();
}

function exitReplay() {
  mode = "live";
  document.body.dataset.mode = "live";
  delete document.body.dataset.replayStep;
  $("replay-bar").hidden = true;
  $("replay-toggle").setAttribute("aria-pressed", "false");
  orders.key = "";
  if (live) draw(live);
}

$("replay-toggle").addEventListener("click", () => (mode === "live" ? enterReplay() : exitReplay()));
$("replay-exit").addEventListener("click", exitReplay);
$("replay-step").addEventListener("input", (ev) => showReplay(Number(ev.target.value)));
$("replay-prev").addEventListener("click", () => showReplay(replayStep - 1));
$("replay-next").addEventListener("click", () => showReplay(replayStep + 1));
$("replay-prev-turn").addEventListener("click", () => jumpTurn(-1));
$("replay-next-turn").addEventListener("click", () => jumpTurn(1));
$("replay-step").addEventListener("keydown", (ev) => {
  // Page keys move a turn at a time (the slider's own big steps mean nothing in a game).
  if (ev.key === "PageUp" || ev.key === "PageDown") {
    ev.preventDefault();
    jumpTurn(ev.key === "PageDown" ? 1 : -1);
  }
});
$("zoom-in").addEventListener("click", () => map.zoom(1.25));
$("zoom-out").addEventListener("click", () => map.zoom(1 / 1.25));
$("zoom-fit").addEventListener("click", () => map.fit());

function setSocketState(state) {
  document.body.dataset.socket = state;
  const el = $("socket");
  el.textContent = state === "open" ? "live" : state;
  el.className = `socket ${state}`;
}

async function main() {
  if (!game) {
    $("title").textContent = "No game given";
    showError(new Error("This page needs a game: open it from the lobby or a join link."));
    return;
  }
  try {
    acceptLive(await api.scene(game));
  } catch (err) {
    showError(err);
  }
  const socket = new LiveSocket(game, token, { onScene: acceptLive, onState: setSocketState });
  socket.open();
  window.addEventListener("beforeunload", () => socket.close());
}

main();
