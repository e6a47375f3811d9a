// The game page: live scene over the WebSocket, the map, orders, cards, log, result and replay
// (its scrubber is replay.js); the side column's tabs, and the hot-seat hand-over between sides
// at a secret prompt.

import { Api, LiveSocket, pageParams } from "./api.js";
import { ChatPanel } from "./chat.js";
import { HandOver } from "./handover.js";
import { HexMap } from "./map/hexmap.js";
import { OrdersPanel } from "./orders/panel.js";
import { Tabs } from "./tabs.js";
import { ViewToggle } from "./view3d.js";
import { renderCards } from "./cards.js";
import { AvidPanel } from "./avid-panel.js";
import { Replay } from "./replay.js";
import { h, sideChip, sideColours } from "./dom.js";
import { renderLog } from "./log.js";
import { renderResult, renderStatus } from "./status.js";
import { TurnSignal } from "./signal.js";
import { setupTutorial } from "./tutorial.js";
import { RuleLinks } from "./rule-links.js";
import { EndingPanel } from "./ending.js";
import { ClockPanel } from "./clock.js";

const $ = (id) => document.getElementById(id);

const { game, token } = pageParams();
const api = new Api(token);
// Set up before the orders panel is built, so every order goes through the tutorial's check.
const tutorial = setupTutorial(api, game);
const ruleLinks = new RuleLinks(document.getElementById("rule-links"), api);
let live = null; // the newest live scene
let shown = null; // the scene on screen (live, or a replayed step)
let selected = null; // the counter last clicked on the map, until the next prompt
let acting = null; // the side ordering on this screen during a hot-seat hand-over

/** Visible plot radios (the side ordering now) for a ship. */
function plotRadios(ship) {
  return [
    ...document.querySelectorAll(`#orders form.side-orders:not([hidden]) input[type=radio][data-ship="${CSS.escape(ship)}"]`),
  ];
}

/** The ship the zoom buttons centre on: the one clicked, the one being plotted, else the viewer's own. */
function focusShip() {
  const scene = shown;
  if (!scene) return null;
  const counters = scene.counters || [];
  const has = (id) => id && counters.some((c) => c.id === id);
  if (has(selected)) return selected;
  if (replay.mode === "live" && has(orders.activeShip) && plotRadios(orders.activeShip).length) return orders.activeShip;
  const viewer = scene.viewer || [];
  const own = counters.filter((c) => viewer.includes(c.side));
  const ship = own.find((c) => c.status === "active") || own[0];
  return ship ? ship.id : null;
}

/** AV:T: a ship clicked on the map is the one whose AVID the AVID tab shows. */
function showCard(id) {
  avid.select(id);
  const card = document.querySelector(`.card[data-title^="${CSS.escape(id)}:"], .card[data-title="${CSS.escape(id)}"]`);
  if (!card) return;
  tabs.select("ships");
  card.scrollIntoView({ block: "nearest", behavior: "smooth" });
  card.classList.add("flash");
  setTimeout(() => card.classList.remove("flash"), 900);
}

/**
 * A click on a hex picks the plot ending there. The orders panel does that for the plot list it
 * built last; in hot-seat that may be another side's (hidden) list, so the visible one is tried too.
 */
function pickHex(hex) {
  if (orders.pickHex(hex)) return;
  const ship = orders.activeShip;
  if (!ship) return;
  const inputs = plotRadios(ship).filter((i) => i.dataset.end === hex);
  if (!inputs.length) return;
  const next = inputs[(inputs.findIndex((i) => i.checked) + 1) % inputs.length];
  next.checked = true;
  next.dispatchEvent(new Event("change"));
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest" });
}

const map = new HexMap($("map"), {
  onCounterClick: (id) => {
    if (replay.mode === "live" && orders.pickTarget(id)) return;
    selected = id;
    // One of the player's own ships being plotted: select it in the orders (its reach and ghost).
    const radios = replay.mode === "live" && tabs.current === "orders" ? plotRadios(id) : [];
    if (radios.length) {
      (radios.find((r) => r.checked) || radios[0]).focus();
      return;
    }
    showCard(id);
  },
  onHexClick: (hex) => {
    if (replay.mode === "live") pickHex(hex);
  },
  onViewKey: () => view3d.toggle(),
  focus: focusShip,
  onModes: ({ follow, ruler }) => {
    $("follow-ships").setAttribute("aria-pressed", String(follow));
    $("ruler").setAttribute("aria-pressed", String(ruler));
  },
});
const view3d = new ViewToggle($("view-3d"), map, game);
const avid = new AvidPanel($("avid"), { tab: $("tab-avid") });

// Events seen on the Log tab; newer ones (and chat lines from the others) are counted on the tab
// while another panel shows.
let logSeen = null;
let chatUnread = 0;
const tabs = new Tabs(document.querySelector(".side .tabs"), {
  onSelect: (name) => {
    if (name === "log") {
      const log = $("log");
      log.scrollTop = log.scrollHeight;
      chatUnread = 0;
    }
    if (shown) updateBadges(shown);
  },
});

function updateBadges(scene) {
  const events = (scene.events || []).length;
  // What happened before the page opened is not news.
  if (tabs.current === "log" || replay.mode === "replay" || logSeen === null) logSeen = events;
  if (tabs.current === "log") chatUnread = 0;
  const unread = Math.max(0, events - logSeen) + chatUnread;
  tabs.badge("log", unread ? String(unread) : "", unread ? `${unread} new` : "");
  const needed = replay.mode === "live" && (scene.my_turn || []).length && tabs.current !== "orders";
  tabs.badge("orders", needed ? "!" : "", needed ? "your orders are needed" : "");
}

$("skip-orders").addEventListener("click", () => tabs.select("orders"));

const handover = new HandOver($("handover"), {
  covered: [document.querySelector(".map-pane"), document.querySelector(".side")],
  onReady: (side) => {
    acting = side;
    showActingSide();
    tabs.select("orders");
    $("panel-orders").scrollTop = 0;
    const form = document.querySelector(`#orders form.side-orders[data-side="${CSS.escape(side)}"]`);
    const first = form && form.querySelector("input[type=radio]:checked, input[type=radio], input[type=text], button");
    if (first) first.focus({ preventScroll: true });
  },
});

/**
 * Hot-seat at a secret prompt: only the acting side's form shows (the others wait their turn
 * behind the hand-over), and the map shows that side's reach, not the last form built.
 */
function showActingSide() {
  const forms = [...document.querySelectorAll("#orders form.side-orders")];
  for (const form of forms) form.hidden = Boolean(acting) && form.dataset.side !== acting;
  if (!acting) return;
  const form = forms.find((f) => f.dataset.side === acting);
  if (!form) return;
  const radios = [...form.querySelectorAll("input[type=radio]")];
  if (radios.length && !radios.some((r) => r.dataset.ship === orders.activeShip)) {
    // The panel's own focus handler draws a ship's reach and chosen plot; no focus is moved.
    (radios.find((r) => r.checked) || radios[0]).dispatchEvent(new FocusEvent("focus"));
  }
}

/** Long plots (VMS burns) get a list a whole line wide, so the end hex is never cut off. */
function fitPlotLists() {
  for (const list of document.querySelectorAll("#orders .options")) {
    const longest = Math.max(0, ...[...list.querySelectorAll(".option")].map((o) => o.textContent.length));
    list.classList.toggle("one-column", longest > 22);
  }
}

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

// Conceding and offering a draw (ending.js): its answers are live scenes like an order's.
const ending = new EndingPanel($("ending"), { api, game, onScene: (scene) => acceptLive(scene), onError: showError });

// Deadlines and clocks (clock.js): asked of the server whenever the prompt changes.
const clock = new ClockPanel($("table-clock"), $("clock-log"), { api, game, onError: showError });

const signal = new TurnSignal({ notifyButton: $("notify-toggle"), soundButton: $("sound-toggle"), game });
const chat = new ChatPanel($("chat"), {
  api,
  game,
  onLine: (line, own) => {
    if (own || tabs.current === "log") return;
    chatUnread += 1;
    if (shown) updateBadges(shown);
  },
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
  $("velocity-legend").replaceChildren(...(items.length ? [h("ul", {}, ...items)] : []));
}

/** Draw a scene; in replay mode the orders panel stays empty because nothing can be ordered. */
function draw(scene) {
  shown = scene;
  const colours = sideColours(scene);
  const scenarioTitle = scene.scenario ? scene.scenario.title : "";
  $("title").textContent = `${scenarioTitle}`;
  $("title").title = `${scene.system_title || scene.system} · game ${scene.game || game}`;
  const title = `${scenarioTitle} · ${scene.system_title || scene.system} · vectorwar`;
  document.body.dataset.step = String(scene.step);
  document.body.dataset.over = scene.result ? "true" : "false";
  // The legend sits above the map: filled first, so the map's size is settled before it is fitted.
  renderLegend(scene);
  view3d.choose(scene);
  map.render(scene);
  map.tracks(replay.mode === "replay" ? scene.tracks || null : null, replay.layers());
  renderStatus($("status"), scene, replay.mode);
  renderCards($("cards"), scene.cards, colours, scene);
  avid.update(scene);
  if (tabs.current === "avid" && !AvidPanel.offered(scene)) tabs.select("ships");
  renderLog($("log"), scene.events, scene.practice);
  renderResult($("result"), scene.result, colours);
  ending.update(scene, replay.mode);
  const prompt = scene.prompt ? `${scene.step} ${scene.prompt.clock}` : "";
  if (replay.mode === "live") {
    const newPrompt = prompt !== draw.prompt;
    draw.prompt = prompt;
    orders.update(scene);
    // A spectator has nothing to order: the log is the thing to watch.
    if (!draw.opened && !(scene.viewer || []).length) tabs.select("log");
    draw.opened = true;
    if (newPrompt) {
      selected = null;
      $("panel-orders").scrollTop = 0;
      // A new prompt with orders to give: show them (the player may still look at another tab).
      if ((scene.my_turn || []).length) tabs.select("orders");
    }
    acting = handover.update(scene, replay.mode);
    showActingSide();
    fitPlotLists();
  } else {
    handover.update(scene, replay.mode);
    acting = null;
    orders.clear();
    $("orders").replaceChildren(
      h("p", { class: "hint replay-note" }, `Replay at step ${scene.step}. Orders are given in the live game.`),
    );
  }
  updateBadges(scene);
  signal.update(scene, replay.mode, title);
  if (tutorial && replay.mode === "live") tutorial.update(scene);
  if (replay.mode === "live") ruleLinks.update(scene);
}

function acceptLive(scene) {
  // A push can overtake the answer to our own order; never go back to an older scene.
  if (live && scene.step < live.step) return;
  live = scene;
  chat.update(scene);
  clock.update(scene);
  replay.liveMoved(scene);
  if (replay.mode === "live") draw(scene);
}

const replay = new Replay(api, game, {
  latest: () => live,
  show: draw,
  onExit: () => {
    orders.key = "";
    if (live) draw(live);
  },
  onError: showError,
});

$("zoom-in").addEventListener("click", () => map.zoomStep(1.25));
$("zoom-out").addEventListener("click", () => map.zoomStep(1 / 1.25));
$("zoom-fit").addEventListener("click", () => map.fitShips());
$("zoom-board").addEventListener("click", () => map.fitBoard());
$("follow-ships").addEventListener("click", () => map.toggleFollow());
$("ruler").addEventListener("click", () => map.toggleRuler());

function setSocketState(state) {
  // Chat lines sent while the socket was down are read again from the store.
  if (state === "open" && document.body.dataset.socket === "closed") chat.load();
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
    // ?replay (an imported game's link): open at the replay's first step.
    if (new URLSearchParams(window.location.search).has("replay")) replay.enter();
  } catch (err) {
    showError(err);
  }
  const socket = new LiveSocket(game, token, { onScene: acceptLive, onState: setSocketState, onChat: (line) => chat.add(line) });
  socket.open();
  window.addEventListener("beforeunload", () => socket.close());
}

main();
