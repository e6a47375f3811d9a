// Play by e-mail (docs/pbem.md): load a game file, see your side, commit a plot, reveal, download the new file.
// The server is stateless here: each call sends the file and this side's keyring and gets both back. The keyring
// (the sealed plot, salt and secret until the reveal, and the last state seen) is kept in localStorage per game
// and side, and can be downloaded; the game file is what the players pass to each other.

import { renderCards } from "./cards.js";
import { h, fill, sideColours } from "./dom.js";
import { HexMap } from "./map/hexmap.js";
import { renderLog } from "./log.js";
import { oddsDetail } from "./orders/odds.js";

const $ = (id) => document.getElementById(id);
const state = { file: null, keyring: null, side: null, view: null, name: "game.vwpbem" };
let map = null;

const keyringKey = (game, side) => `vectorwar.pbem.${game}.${side}`;

function showError(message) {
  const box = $("pbem-error");
  box.textContent = message || "";
  box.hidden = !message;
  document.body.dataset.error = message ? "true" : "false";
}

async function call(route, body) {
  const answer = await fetch(`/api/pbem/${route}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = data.error || {};
    throw new Error(error.message || `the server answered ${answer.status}`);
  }
  return data;
}

function readFile(input) {
  const file = input.files && input.files[0];
  if (!file) return Promise.resolve(null);
  return file.text().then((text) => ({ name: file.name, data: JSON.parse(text) }));
}

function sideOptions(select, sides, chosen) {
  fill(select, sides.map((s) => h("option", { value: s, selected: s === chosen }, s)));
}

function accept(answer) {
  state.file = answer.file;
  state.keyring = answer.keyring;
  state.view = answer.view;
  state.side = answer.view.side;
  localStorage.setItem(keyringKey(answer.view.game, state.side), JSON.stringify(answer.keyring));
  render(answer.events || []);
}

function owedLine(view) {
  if (view.over) {
    const r = view.result || {};
    const who = (r.winners || []).length ? `${r.winners.join(" and ")} won` : "a draw";
    return `Game over: ${who} (${r.reason || ""}).`;
  }
  const parts = Object.entries(view.owed).map(([side, what]) => `${side} owes a ${what === "commit" ? "commitment" : "reveal"}`);
  return `Step ${view.step} (${view.moment}): ${parts.join(", ")}.`;
}

const when = (seconds) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

function drawLine(view) {
  const offer = view.draw_offer;
  if (!offer) return null;
  return h("p", { id: "pbem-draw-offer" }, `A draw is offered: ${offer.agreed.join(" and ")} agreed. The game ends drawn `
    + `if ${offer.waiting.join(" and ")} ${offer.waiting.length > 1 ? "agree" : "agrees"} at this step; `
    + "playing on lets the offer lapse.");
}

function deadlineLine(view) {
  if (!view.deadline_hours || view.claimable_at === null) return null;
  const silent = Object.keys(view.owed).join(" and ");
  return h("p", { id: "pbem-deadline" },
    `Deadline: ${view.deadline_hours} h a step. The last action was at ${when(view.last_time)}; `
    + `from ${when(view.claimable_at)} the others may claim this step against ${silent}.`);
}

function render(events) {
  const view = state.view;
  document.body.dataset.step = String(view.step);
  document.body.dataset.sequence = String(view.sequence);
  $("pbem-side-view").hidden = false;
  const owed = view.owed[state.side];
  const mine = owed === "commit" ? "You owe your commitment." : owed === "reveal" ? "You owe your reveal." : "Nothing owed by you now: download the file and send it on.";
  const sealed = view.sealed === null ? null : h("p", { id: "pbem-sealed" }, `Your sealed plot: ${view.sealed || "(none: a secret only)"}`);
  const turns = view.whole_turns ? h("p", { id: "pbem-whole" }, "One file a turn: after your orders you may add "
    + "standing fire for the rest of the turn, like \u201cHawk 2L1 | fire at any 30%\u201d; without it your ships hold fire.") : null;
  fill($("pbem-status"), h("p", { id: "pbem-owed" }, owedLine(view)), h("p", {}, `${state.side}: ${mine}`), sealed,
    drawLine(view), deadlineLine(view), turns);
  const offer = view.draw_offer;
  $("pbem-draw").hidden = view.over || view.step === 0 || Boolean(offer && offer.agreed.includes(state.side));
  $("pbem-draw").textContent = offer ? "Agree to the draw" : "Offer a draw";
  $("pbem-concede").hidden = view.over || view.step === 0;
  $("pbem-concede-confirm").hidden = true;
  $("pbem-claim").hidden = !view.deadline_hours || view.over;
  $("pbem-claim").disabled = !view.claimable;
  const prompted = view.prompted.includes(state.side);
  $("pbem-order").disabled = owed !== "commit" || !prompted;
  $("pbem-commit").disabled = owed !== "commit";
  $("pbem-reveal").disabled = owed !== "reveal";
  const prompt = view.scene && view.scene.prompt;
  $("pbem-help").textContent = prompted && prompt ? prompt.help || "" : owed === "commit" ? "No orders at this step: commit sends a secret for the dice." : "";
  fill($("pbem-events"), events.map((line) => h("li", {}, line)));
  if (view.scene) {
    if (!map) map = new HexMap($("map"));
    map.render(view.scene);
    renderCards($("cards"), view.scene.cards, sideColours(view.scene), view.scene);
  }
  renderOdds(view.scene);
  // The game's whole log, as the online table's Log tab shows it: the file replays every roll.
  renderLog($("pbem-log"), view.scene ? view.scene.events : []);
}

// The odds of every shot this side may fire now, worked out by the server's rules as at the online table.
function renderOdds(scene) {
  const shots = scene ? Object.values(scene.fire_options || {}).flat() : [];
  $("pbem-odds").hidden = shots.length === 0;
  fill($("pbem-odds-list"), shots.map((option) => oddsDetail(option)));
}

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

async function guarded(work) {
  showError("");
  try {
    await work();
  } catch (err) {
    showError(err.message);
  }
}

async function loadSystems() {
  const systems = await (await fetch("/api/systems")).json();
  const scenarios = systems.flatMap((s) => s.scenarios.map((sc) => ({ ...sc, system: s.title })));
  fill($("pbem-scenario"), scenarios.map((sc) => h("option", { value: sc.id, dataset: { sides: sc.sides.join(",") } }, `${sc.title} (${sc.system})`)));
  const pickSides = () => {
    const chosen = $("pbem-scenario").selectedOptions[0];
    sideOptions($("pbem-new-side"), chosen ? chosen.dataset.sides.split(",") : [], null);
  };
  $("pbem-scenario").addEventListener("change", pickSides);
  pickSides();
}

$("pbem-file").addEventListener("change", () => guarded(async () => {
  const read = await readFile($("pbem-file"));
  if (!read) return;
  state.file = read.data;
  state.name = read.name;
  const sides = ((read.data.scenario || {}).sides || []).map((s) => s.id);
  sideOptions($("pbem-side"), sides, state.side);
}));

// The keyring chosen as a file, else the one this browser kept for the game and side, else none.
async function chosenKeyring(side) {
  const uploaded = await readFile($("pbem-keyring"));
  const kept = localStorage.getItem(keyringKey(state.file.game, side));
  return uploaded ? uploaded.data : kept ? JSON.parse(kept) : null;
}

$("pbem-open").addEventListener("click", () => guarded(async () => {
  if (!state.file) throw new Error("Choose the game file first.");
  const side = $("pbem-side").value;
  accept(await call("view", { file: state.file, side, keyring: await chosenKeyring(side) }));
}));

$("pbem-rebuild").addEventListener("click", () => guarded(async () => {
  // The file chosen is the one your last pass answered; your keyring keeps that pass and adds it again.
  if (!state.file) throw new Error("Choose the file your last pass answered first.");
  const side = $("pbem-side").value;
  const keyring = await chosenKeyring(side);
  if (!keyring) throw new Error("This browser has no keyring for that side: choose your keyring file too.");
  accept(await call("rebuild", { file: state.file, side, keyring }));
}));

$("pbem-create").addEventListener("click", () => guarded(async () => {
  const turns = $("pbem-turns").value;
  const hours = $("pbem-deadline-hours").value;
  const body = { scenario: $("pbem-scenario").value, side: $("pbem-new-side").value };
  if (turns) body.max_turns = Number(turns);
  if (hours) body.deadline_hours = Number(hours);
  if ($("pbem-whole-turns").checked) body.whole_turns = true;
  state.name = `${body.scenario}.vwpbem`;
  accept(await call("new", body));
}));

$("pbem-plot-form").addEventListener("submit", (event) => {
  event.preventDefault();
  guarded(async () => {
    // A pass: commit these orders, and reveal them at once when this is the step's last commitment.
    const order = $("pbem-order").disabled ? null : $("pbem-order").value;
    accept(await call("turn", { file: state.file, side: state.side, keyring: state.keyring, order }));
    $("pbem-order").value = "";
  });
});

$("pbem-reveal").addEventListener("click", () => guarded(async () => {
  // A pass: reveal (the last reveal throws the dice), then stop where this side's next orders are needed.
  accept(await call("turn", { file: state.file, side: state.side, keyring: state.keyring }));
}));

$("pbem-claim").addEventListener("click", () => guarded(async () => {
  accept(await call("claim", { file: state.file, side: state.side, keyring: state.keyring }));
}));

// Conceding ends the game for good, so the page asks first, naming who would win.
$("pbem-concede").addEventListener("click", () => {
  const others = state.view.sides.filter((side) => side !== state.side);
  $("pbem-concede-question").textContent = `${state.side}: concede the game? ${others.join(" and ")} `
    + `${others.length > 1 ? "win" : "wins"}, and it cannot be taken back.`;
  $("pbem-concede-confirm").hidden = false;
});
$("pbem-concede-no").addEventListener("click", () => { $("pbem-concede-confirm").hidden = true; });
$("pbem-concede-yes").addEventListener("click", () => guarded(async () => {
  accept(await call("concede", { file: state.file, side: state.side, keyring: state.keyring }));
}));

$("pbem-draw").addEventListener("click", () => guarded(async () => {
  accept(await call("draw", { file: state.file, side: state.side, keyring: state.keyring }));
}));

$("pbem-download").addEventListener("click", () => download(state.name, state.file));
$("pbem-download-keyring").addEventListener("click", () =>
  download(`${state.name.replace(/\.[^.]*$/, "")}.${state.side}.secret.json`, state.keyring));

guarded(loadSystems);
// Every control answers from here on (tests wait for it before choosing a file).
document.body.dataset.ready = "true";
