// The lobby: quick start against the computer, game set-up, join links, games to watch or resume.

import { Api, rememberToken, savedGames } from "./api.js";
import { fill, h } from "./dom.js";
import { loadMyGames, loadOpenGames } from "./lobby-lists.js";
import { chosenPace, fillPaceBots, setupPaceForm } from "./pace-form.js";

const $ = (id) => document.getElementById(id);
const api = new Api();
let systems = [];

const QUICK_SCENARIO = "vv5-dogfight";
const QUICK_BOT = "greedy";

// The search bot's strength levels are named search, search:2, search:3 (the CLI's --side blue=search:2).
function botLabel(name) {
  const [bot, level] = name.split(":");
  return bot === "search" ? `search, strength ${level || 1}` : name;
}

function absolute(url) {
  return new URL(url, window.location.href).href;
}

/** Where a player's link leads; the server's link is used as given, with a fallback for old servers. */
function playerUrl(game, player) {
  if (player.url) return absolute(player.url);
  return absolute(`/games/${encodeURIComponent(game)}?token=${encodeURIComponent(player.token)}`);
}

/** A spectator link never picks up a token this browser kept for the game. */
function spectateUrl(id) {
  return absolute(`/games/${encodeURIComponent(id)}?spectate=1`);
}

function currentSystem() {
  return systems.find((s) => s.name === $("system").value) || null;
}

function currentScenario() {
  const sys = currentSystem();
  return sys ? sys.scenarios.find((s) => s.id === $("scenario").value) || null : null;
}

function fillSystems() {
  $("system").replaceChildren(...systems.map((s) => h("option", { value: s.name }, `${s.title} (${s.name})`)));
  const vv5 = systems.find((s) => s.name === "vv5");
  if (vv5) $("system").value = "vv5";
  fillScenarios();
}

/**
 * One control per rule option of the system (a checkbox, a list of choices, or a number),
 * starting from what the scenario sets, else the system's default.
 */
function fillOptions() {
  const sys = currentSystem();
  const sc = currentScenario();
  const preset = (sc && sc.options) || {};
  const box = $("options");
  const options = (sys && sys.options) || [];
  box.replaceChildren(h("legend", {}, "Rule options"));
  // Folded away by default: a newcomer needs none of them to start playing.
  $("options-box").hidden = options.length === 0;
  for (const option of options) {
    const o = { ...option, default: option.name in preset ? preset[option.name] : option.default };
    const id = `option-${o.name}`;
    const data = { option: o.name, kind: typeof o.default };
    let control;
    if (typeof o.default === "boolean") {
      control = h("input", { type: "checkbox", id, name: id, dataset: data });
      control.checked = o.default;
    } else if ((o.choices || []).length) {
      control = h("select", { id, name: id, dataset: data }, ...o.choices.map((c) => h("option", { value: String(c) }, String(c))));
      control.value = String(o.default);
    } else {
      control = h("input", { type: typeof o.default === "number" ? "number" : "text", id, name: id, dataset: data });
      // A number option's bounds, which the server checks too.
      if (o.least !== null && o.least !== undefined) control.min = String(o.least);
      if (o.most !== null && o.most !== undefined) control.max = String(o.most);
      control.value = String(o.default);
    }
    control.dataset.default = String(o.default);
    const label = h("label", { for: id }, o.name.replaceAll("_", " "));
    const row = typeof o.default === "boolean" ? h("div", { class: "field inline rule-option" }, control, label) : h("div", { class: "field inline rule-option" }, label, control);
    row.append(h("p", { class: "option-help" }, o.description));
    box.append(row);
  }
}

/** The options whose controls differ from the system's defaults, typed as the server expects. */
function chosenOptions() {
  const out = {};
  for (const control of $("options").querySelectorAll("[data-option]")) {
    const kind = control.dataset.kind;
    const value = kind === "boolean" ? control.checked : kind === "number" ? Number(control.value) : control.value;
    if (String(value) !== control.dataset.default) out[control.dataset.option] = value;
  }
  return out;
}

function fillScenarios() {
  const sys = currentSystem();
  const scenarios = sys ? sys.scenarios : [];
  $("scenario").replaceChildren(...scenarios.map((s) => h("option", { value: s.id }, s.title)));
  fillSides();
}

function fillSides() {
  fillOptions();
  const sys = currentSystem();
  fillPaceBots(sys);
  const sc = currentScenario();
  $("scenario-description").textContent = sc ? sc.description || "" : "";
  const box = $("sides");
  box.replaceChildren(h("legend", {}, "Sides"));
  if (!sc) return;
  sc.sides.forEach((side, i) => {
    const id = `side-${side}`;
    const select = h(
      "select",
      { id, name: id, dataset: { side } },
      h("option", { value: "human" }, "person"),
      // A person's side whose link is not made now: anyone may take it from the lobby's open games.
      h("option", { value: "open" }, "open side (anyone may join)"),
      ...(sys.bots || []).map((b) => h("option", { value: `bot:${b}` }, `computer: ${botLabel(b)}`)),
    );
    // A newcomer most likely wants to play the first side against the computer.
    if (i > 0 && (sys.bots || []).length) {
      select.value = (sys.bots || []).includes(QUICK_BOT) ? `bot:${QUICK_BOT}` : `bot:${sys.bots[0]}`;
    }
    box.append(h("div", { class: "field side-pick" }, h("label", { for: id }, side), select));
  });
}

function showCreated(created, spec) {
  const box = $("created");
  box.hidden = false;
  const rows = (created.players || []).map((p) => {
    const url = playerUrl(created.id, p);
    const copy = h(
      "button",
      {
        type: "button",
        class: "secondary copy",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
            copy.textContent = "Copied";
          } catch {
            copy.textContent = "Select and copy the link";
          }
        },
      },
      "Copy link",
    );
    return h(
      "li",
      { class: "player-link", dataset: { sides: p.sides.join(",") } },
      h("strong", {}, p.sides.join(" + ")),
      " ",
      h("a", { href: url, class: "join" }, "Play"),
      " ",
      copy,
      h("input", { type: "text", readonly: true, value: url, "aria-label": `join link for ${p.sides.join(", ")}`, class: "link" }),
    );
  });
  const bots = Object.entries(spec.sides).filter(([, v]) => v.startsWith("bot:"));
  const open = Object.entries(spec.sides).filter(([, v]) => v === "open");
  fill(
    box,
    h("h3", {}, `Game ${created.id} is ready`),
    h("p", { class: "hint" }, "Each link is that player's key to their sides: send it only to them."),
    h("ul", { class: "links" }, ...rows),
    spec.pace ? h("p", { class: "pace-note" }, `Pace: ${$("pace").selectedOptions[0].textContent}`) : null,
    bots.length ? h("p", {}, `Computer players: ${bots.map(([s, v]) => `${s} (${v.slice(4)})`).join(", ")}`) : null,
    open.length ? h("p", {}, `Open sides, listed under Open games for anyone to join: ${open.map(([s]) => s).join(", ")}`) : null,
    h("p", {}, h("a", { href: spectateUrl(created.id), class: "spectate" }, "Watch as a spectator")),
  );
  box.querySelector("a.join")?.focus();
}

async function create(spec) {
  const created = await api.createGame(spec);
  for (const p of created.players || []) rememberToken(created.id, p.token, p.sides);
  return created;
}

async function quickStart() {
  const status = $("quick-status");
  const button = $("quick-start");
  button.disabled = true;
  status.textContent = "Setting up the game…";
  try {
    let created;
    try {
      created = await api.request("POST", "/api/quickstart");
    } catch (err) {
      if (err.status !== 404 && err.status !== 405) throw err;
      // A server without the quick-start route: ask for the same game the general way.
      const vv5 = systems.find((s) => s.name === "vv5");
      const sc = vv5 && vv5.scenarios.find((s) => s.id === QUICK_SCENARIO);
      const names = sc ? sc.sides : ["red", "blue"];
      const sides = Object.fromEntries(names.map((s, i) => [s, i === 0 ? "human" : `bot:${QUICK_BOT}`]));
      created = await api.createGame({ scenario: QUICK_SCENARIO, sides });
    }
    for (const p of created.players || []) rememberToken(created.id, p.token, p.sides);
    const player = (created.players || [])[0];
    window.location.href = playerUrl(created.id, player);
  } catch (err) {
    status.textContent = `Could not start: ${err.message}`;
    button.disabled = false;
  }
}

async function submitForm(ev) {
  ev.preventDefault();
  const sc = currentScenario();
  if (!sc) return;
  const sides = {};
  for (const sel of $("sides").querySelectorAll("select")) sides[sel.dataset.side] = sel.value;
  const spec = { scenario: sc.id, sides };
  if ($("hotseat").checked) spec.hotseat = true;
  const options = chosenOptions();
  if (Object.keys(options).length) spec.options = options;
  const seed = $("seed").value.trim();
  if (seed) spec.seed = Number(seed);
  const pace = chosenPace();
  if (pace) spec.pace = pace;
  const status = $("create-status");
  status.textContent = "Creating…";
  try {
    const created = await create(spec);
    status.textContent = "";
    showCreated(created, spec);
    loadGames();
    loadOpenGames();
    loadMyGames();
  } catch (err) {
    status.textContent = `Refused: ${err.message}`;
  }
}

async function loadGames() {
  const box = $("games");
  let games;
  try {
    games = await api.games();
  } catch (err) {
    box.replaceChildren(h("p", { class: "hint" }, `Could not list games: ${err.message}`));
    return;
  }
  if (!games.length) {
    box.replaceChildren(h("p", { class: "hint" }, "No games yet."));
    return;
  }
  const mine = savedGames();
  const rows = games.map((g) => {
    const sides = Object.entries(g.sides || {})
      .map(([s, k]) => `${s}: ${k}`)
      .join(", ");
    const saved = mine[g.id];
    const links = [h("a", { href: spectateUrl(g.id), class: "watch" }, "watch")];
    if (saved && saved.token) {
      links.unshift(
        h(
          "a",
          { href: playerUrl(g.id, { token: saved.token }), class: "resume" },
          `resume${saved.sides && saved.sides.length ? ` as ${saved.sides.join(" + ")}` : ""}`,
        ),
        " · ",
      );
    }
    return h(
      "tr",
      { dataset: { game: g.id } },
      h(
        "td",
        {},
        g.title || g.scenario,
        // Its creator chose the dice seed, so can foresee every roll: say so before anyone joins.
        g.practice ? h("span", { class: "practice-tag", title: "The game's creator chose the dice seed and can foresee every roll" }, " practice") : "",
      ),
      h("td", {}, g.system),
      h("td", {}, g.over ? "over" : `turn ${g.turn}`, g.pace && !g.over ? h("span", { class: "pace-tag" }, ` · ${g.pace}`) : ""),
      h("td", {}, sides),
      h("td", {}, ...links),
    );
  });
  box.replaceChildren(
    h(
      "table",
      { class: "games-table" },
      h("thead", {}, h("tr", {}, ...["Scenario", "System", "Turn", "Sides", ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, ...rows),
    ),
  );
}

async function main() {
  $("quick-start").addEventListener("click", quickStart);
  $("system").addEventListener("change", fillScenarios);
  $("scenario").addEventListener("change", fillSides);
  $("create-form").addEventListener("submit", submitForm);
  setupPaceForm();
  $("refresh-games").addEventListener("click", () => {
    loadGames();
    loadOpenGames();
    loadMyGames();
  });
  try {
    systems = await api.systems();
    fillSystems();
    document.body.dataset.ready = "true";
  } catch (err) {
    $("create-status").textContent = `Could not load the rule systems: ${err.message}`;
  }
  loadGames();
  loadOpenGames();
  loadMyGames();
}

main();
