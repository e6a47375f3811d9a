// The scenario editor (docs/web.md, "The designer's workshop"): map size, sides and their ships
// from the catalogue or the player's fleet, start zones where the system has them, how to win (turn
// limit and the system's victory options) and its other options. After each change
// the server sets the scenario up as a new game would be (POST /api/workshop/scenario) and
// answers its problem in the set-up's own words, or the TOML file that "Play it now" sends to
// POST /api/games as `scenario_toml`.

import { fill, h } from "./dom.js";

const FACINGS = ["A", "B", "C", "D", "E", "F"];
const MAX_SIDES = 8;
const MAX_SHIPS_A_SIDE = 20;
const SIDE_NAMES = ["red", "blue", "green", "gold", "white", "black", "grey", "violet"];

const $ = (id) => document.getElementById(id);

function numberInput(id, value, min, max, onValue) {
  const input = h("input", { id, type: "number", min, max, step: 1, value });
  input.addEventListener("input", () => {
    const n = Number(input.value);
    if (input.value.trim() !== "" && Number.isInteger(n)) onValue(n);
  });
  return input;
}

function textInput(id, value, onValue, attrs = {}) {
  const input = h("input", { id, type: "text", maxlength: 120, value, ...attrs });
  input.addEventListener("input", () => onValue(input.value.trim()));
  return input;
}

/** The editor in `root`; `designers` are the workshop's systems, `fleet()` the fleet's designs now. */
export function scenarioEditor(api, root, designers, lobbySystems, fleet) {
  const state = { scenario: null, options: {}, zones: false, checked: null, seq: 0, timer: null };

  const systemOf = () => lobbySystems.find((s) => s.name === state.scenario.system);
  const designerOf = () => designers.find((d) => d.system === state.scenario.system) || {};
  const catalogueOf = (system) => (designers.find((d) => d.system === system) || {}).catalogue || {};
  const catalogue = () => catalogueOf(state.scenario.system);
  const fleetDesigns = () => fleet().filter((d) => d.system === state.scenario.system);

  function designChoices(selected) {
    const own = Object.entries(catalogue()).map(([k, t]) =>
      h("option", { value: k, selected: k === selected }, `${k}: ${t.name || k}`),
    );
    const mine = fleetDesigns().map((d) =>
      h("option", { value: `fleet:${d.key}`, selected: `fleet:${d.key}` === selected }, `my fleet: ${d.key} (${d.design.name || d.key})`),
    );
    return [...own, ...mine];
  }

  function blank(system) {
    const first = Object.keys(catalogueOf(system))[0] || "";
    return {
      system,
      title: "My scenario",
      max_turns: 20,
      map: { width: 20, height: 14 },
      sides: [
        { id: "red", ships: [{ id: "Hawk", design: first, at: "3,7", facing: "B", speed: 0 }] },
        { id: "blue", ships: [{ id: "Raven", design: first, at: "16,7", facing: "E", speed: 0 }] },
      ],
    };
  }

  // -- the form ---------------------------------------------------------------------------------

  function shipRow(side, si, ship, j) {
    const p = `sc-s${si}-${j}`;
    const set = (k) => (v) => {
      ship[k] = v;
      changed();
    };
    const design = h("select", { id: `${p}-design` }, designChoices(ship.design));
    design.addEventListener("change", () => set("design")(design.value));
    const facing = h("select", { id: `${p}-facing` }, FACINGS.map((f) => h("option", { value: f, selected: f === ship.facing }, f)));
    facing.addEventListener("change", () => set("facing")(facing.value));
    return h(
      "div",
      { class: "ship-row", dataset: { ship: ship.id } },
      h("label", {}, "Ship ", textInput(`${p}-id`, ship.id, set("id"), { size: 8 })),
      h("label", {}, "Design ", design),
      h("label", {}, "Hex (col,row) ", textInput(`${p}-at`, ship.at, set("at"), { size: 6 })),
      h("label", {}, "Facing ", facing),
      h("label", {}, "Speed ", numberInput(`${p}-speed`, ship.speed ?? 0, 0, 99, set("speed"))),
      h("label", { title: "Starting velocity in the vector systems, e.g. A=2, B=1 (empty: at rest)" }, "Velocity ",
        textInput(`${p}-velocity`, ship.velocity ?? "", (v) => {
          if (v) ship.velocity = v;
          else delete ship.velocity;
          changed();
        }, { size: 9, placeholder: "A=2, B=1" })),
      h("button", {
        type: "button",
        onclick: () => {
          side.ships.splice(j, 1);
          draw();
          changed();
        },
      }, "Remove ship"),
    );
  }

  function sideBox(side, si) {
    const add = h("button", {
      type: "button",
      onclick: () => {
        if (side.ships.length >= MAX_SHIPS_A_SIDE) return;
        const first = Object.keys(catalogue())[0] || "";
        side.ships.push({ id: `${side.id}${side.ships.length + 1}`.replace(/^./, (c) => c.toUpperCase()), design: first, at: "1,1", facing: "A", speed: 0 });
        draw();
        changed();
      },
    }, "Add a ship");
    const remove = h("button", {
      type: "button",
      disabled: state.scenario.sides.length <= 2,
      onclick: () => {
        state.scenario.sides.splice(si, 1);
        draw();
        changed();
      },
    }, "Remove side");
    return h(
      "fieldset",
      { class: "side", dataset: { side: side.id } },
      h("legend", {}, `Side ${si + 1}`),
      h("label", {}, "Side ", textInput(`sc-side${si}`, side.id, (v) => { side.id = v; changed(); }, { size: 8 })),
      ...side.ships.map((ship, j) => shipRow(side, si, ship, j)),
      h("div", { class: "actions" }, add, remove),
    );
  }

  function terrainBox() {
    const sc = state.scenario;
    const terrain = sc.map.terrain || (sc.map.terrain = []);
    const kinds = (designers.find((d) => d.system === sc.system) || {}).terrain || [];
    const rows = terrain.map((t, i) => {
      const kind = textInput(`sc-t${i}-kind`, t.kind, (v) => { t.kind = v; changed(); }, { size: 10, list: "sc-terrain-kinds" });
      return h(
        "div",
        { class: "ship-row terrain-row" },
        h("label", {}, "Hex (col,row) ", textInput(`sc-t${i}-at`, t.at, (v) => { t.at = v; changed(); }, { size: 6 })),
        h("label", {}, "Kind ", kind),
        h("button", { type: "button", onclick: () => { terrain.splice(i, 1); draw(); changed(); } }, "Remove"),
      );
    });
    return h(
      "fieldset",
      { class: "terrain" },
      h("legend", {}, "Terrain"),
      kinds.length ? h("small", { class: "hint" }, `Kinds this system's scenarios use: ${kinds.join(", ")}`) : null,
      h("datalist", { id: "sc-terrain-kinds" }, kinds.map((k) => h("option", { value: k }))),
      ...rows,
      h("button", {
        type: "button",
        disabled: terrain.length >= 200,
        onclick: () => {
          terrain.push({ at: `${Math.ceil(sc.map.width / 2)},${Math.ceil(sc.map.height / 2)}`, kind: kinds[0] || "" });
          draw();
          changed();
        },
      }, "Add terrain"),
    );
  }

  function optionField(o) {
    const id = `sc-opt-${o.name}`;
    const value = state.options[o.name] ?? o.default;
    const set = (v) => {
      if (v === o.default) delete state.options[o.name];
      else state.options[o.name] = v;
      changed();
    };
    let input;
    if (typeof o.default === "boolean") {
      input = h("input", { id, type: "checkbox", checked: value });
      input.addEventListener("change", () => set(input.checked));
    } else if (o.choices && o.choices.length) {
      input = h("select", { id }, o.choices.map((c) => h("option", { value: c, selected: c === value }, c)));
      input.addEventListener("change", () => set(input.value));
    } else if (typeof o.default === "number") {
      input = numberInput(id, value, o.least ?? undefined, o.most ?? undefined, set);
    } else {
      input = textInput(id, value, set);
    }
    return h("div", { class: "field option" }, h("label", { for: id }, o.name), input, h("small", { class: "hint" }, o.description));
  }

  /** A side's start zone as the scenario file draws it: columns, rows (none: every row), heading. */
  function defaultZone(side, si) {
    const width = state.scenario.map.width;
    const cols = si === 0 ? [0, 3] : si === 1 ? [Math.max(0, width - 4), width - 1] : [4 * si - 4, 4 * si - 1];
    return { cols, rows: null, facing: (side.ships[0] && side.ships[0].facing) || "A" };
  }

  function zoneRow(side, si) {
    const zone = side.zone || (side.zone = defaultZone(side, si));
    const p = `sc-z${si}`;
    const pair = (key, i, label, fallback) =>
      h("label", {}, `${label} `, numberInput(`${p}-${key}${i}`, (zone[key] || fallback)[i], 0, 199, (v) => {
        if (!zone[key]) zone[key] = [...fallback];
        zone[key][i] = v;
        changed();
      }));
    const everyRow = h("input", { id: `${p}-allrows`, type: "checkbox", checked: !zone.rows });
    everyRow.addEventListener("change", () => {
      zone.rows = everyRow.checked ? null : [0, state.scenario.map.height - 1];
      draw();
      changed();
    });
    const facing = h("select", { id: `${p}-facing` }, FACINGS.map((f) => h("option", { value: f, selected: f === zone.facing }, f)));
    facing.addEventListener("change", () => { zone.facing = facing.value; changed(); });
    const rows = zone.rows ? [pair("rows", 0, "first row", zone.rows), pair("rows", 1, "last row", zone.rows)] : [];
    return h(
      "div",
      { class: "ship-row zone-row", dataset: { side: side.id } },
      h("strong", {}, side.id),
      pair("cols", 0, "columns", zone.cols),
      pair("cols", 1, "to", zone.cols),
      h("label", {}, everyRow, " every row"),
      ...rows,
      h("label", {}, "facing ", facing),
    );
  }

  function zonesBox() {
    if (!designerOf().start_zones) return null;
    const on = h("input", { id: "sc-zones", type: "checkbox", checked: state.zones });
    on.addEventListener("change", () => {
      state.zones = on.checked;
      draw();
      changed();
    });
    return h(
      "fieldset",
      { class: "zones" },
      h("legend", {}, "Start zones"),
      h("label", {}, on, " Each side places its ships in its zone before turn 1, each at a starting speed of its choice"),
      h("small", { class: "hint" }, "Columns and rows count from 0 at the map's top left, as hexes are written (col,row). The ships' hexes below are then only where a side's ships wait to be placed."),
      ...(state.zones ? state.scenario.sides.map(zoneRow) : []),
    );
  }

  function victoryBox(sys) {
    const sc = state.scenario;
    const names = designerOf().victory || [];
    const options = ((sys && sys.options) || []).filter((o) => names.includes(o.name));
    return h(
      "fieldset",
      { class: "victory" },
      h("legend", {}, "How to win"),
      h("div", { class: "field" }, h("label", { for: "sc-turns" }, "Turn limit"),
        numberInput("sc-turns", sc.max_turns, 1, 200, (v) => { sc.max_turns = v; changed(); }),
        h("small", { class: "hint" }, "The game ends after this turn: a draw unless the rules decided it sooner.")),
      ...options.map(optionField),
      options.length ? null : h("small", { class: "hint" }, "This system has no victory options: a side wins as its rules say."),
    );
  }

  function draw() {
    const sc = state.scenario;
    const sys = systemOf();
    const bots = (sys && sys.bots) || [];
    const victory = designerOf().victory || [];
    const others = ((sys && sys.options) || []).filter((o) => !victory.includes(o.name));
    fill(
      root,
      h(
        "div",
        { class: "scenario-head" },
        h("div", { class: "field" }, h("label", { for: "sc-title" }, "Title"), textInput("sc-title", sc.title, (v) => { sc.title = v; changed(); })),
        h("div", { class: "field" }, h("label", { for: "sc-width" }, "Map width (hexes)"), numberInput("sc-width", sc.map.width, 1, 200, (v) => { sc.map.width = v; changed(); })),
        h("div", { class: "field" }, h("label", { for: "sc-height" }, "Map height (hexes)"), numberInput("sc-height", sc.map.height, 1, 200, (v) => { sc.map.height = v; changed(); })),
      ),
      terrainBox(),
      h("div", { class: "sides" }, ...sc.sides.map(sideBox)),
      h("button", {
        type: "button",
        disabled: sc.sides.length >= MAX_SIDES,
        onclick: () => {
          const id = SIDE_NAMES.find((n) => !sc.sides.some((s) => s.id === n)) || `side${sc.sides.length + 1}`;
          sc.sides.push({ id, ships: [] });
          draw();
          changed();
        },
      }, "Add a side"),
      zonesBox(),
      victoryBox(sys),
      others.length ? h("details", { class: "options" }, h("summary", {}, "Rule options"), ...others.map(optionField)) : null,
      h("div", { class: "field" }, h("label", { for: "sc-bot" }, "The computer plays the other sides as"),
        h("select", { id: "sc-bot" }, bots.map((b) => h("option", { value: b, selected: b === "greedy" }, b)))),
    );
  }

  // -- checking and playing ---------------------------------------------------------------------

  function data() {
    const sc = structuredClone(state.scenario);
    const designs = {};
    const zones = {};
    for (const side of sc.sides) {
      if (side.zone) {
        const { cols, rows, facing } = side.zone;
        zones[side.id] = rows ? { cols, rows, facing } : { cols, facing };
        delete side.zone;
      }
      for (const ship of side.ships) {
        if (ship.design.startsWith("fleet:")) {
          const key = ship.design.slice(6);
          const mine = fleetDesigns().find((d) => d.key === key);
          if (mine) designs[key] = mine.design;
          ship.design = key;
        }
      }
    }
    if (Object.keys(designs).length) sc.designs = designs;
    if (state.zones && designerOf().start_zones) sc.setup = { deploy: { zone: zones } };
    if (Object.keys(state.options).length) sc.options = { ...state.options };
    return sc;
  }

  function changed() {
    clearTimeout(state.timer);
    state.timer = setTimeout(check, 200);
  }

  async function check() {
    const seq = ++state.seq;
    document.body.dataset.scenarioChecking = "true";
    let answer = null;
    let refused = null;
    try {
      answer = await api.request("POST", "/api/workshop/scenario", { scenario: data() });
    } catch (err) {
      refused = err.message;
    }
    if (seq !== state.seq) return;
    state.checked = answer;
    const ok = Boolean(answer && answer.ok);
    const verdict = $("sc-verdict");
    verdict.className = `verdict ${ok ? "legal" : "illegal"}`;
    verdict.textContent = ok ? "Ready: a game can start from this scenario." : "Not ready: set-up refuses this scenario.";
    $("sc-problem").textContent = refused || (answer && answer.problem) || "";
    fill($("sc-warnings"), ((answer && answer.warnings) || []).map((w) => h("li", {}, w)));
    $("sc-toml").textContent = (answer && answer.toml) || "";
    $("sc-play").disabled = !ok;
    if (document.body.dataset.labRunning !== "true") $("sc-lab").disabled = !ok;
    $("sc-download").disabled = !answer;
    document.body.dataset.scenarioOk = String(ok);
    document.body.dataset.scenarioChecking = "false";
  }

  async function play() {
    const sc = state.scenario;
    const bot = $("sc-bot").value;
    const sides = Object.fromEntries(sc.sides.map((s, i) => [s.id, i === 0 ? "human" : `bot:${bot}`]));
    try {
      const created = await api.request("POST", "/api/games", { scenario_toml: state.checked.toml, sides });
      window.location.assign(created.players[0].url);
    } catch (err) {
      $("sc-problem").textContent = err.message;
    }
  }

  function chooseSystem(system) {
    state.scenario = blank(system);
    state.options = {};
    state.zones = false;
    draw();
    changed();
  }

  const select = $("sc-system");
  fill(select, designers.map((d) => h("option", { value: d.system }, d.title)));
  select.addEventListener("change", () => chooseSystem(select.value));
  $("sc-play").addEventListener("click", play);
  $("sc-download").addEventListener("click", () => {
    if (!state.checked) return;
    const url = URL.createObjectURL(new Blob([state.checked.toml], { type: "application/toml" }));
    const a = h("a", { href: url, download: "scenario.toml" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  const first = designers.find((d) => d.editable) || designers[0];
  select.value = first.system;
  chooseSystem(first.system);
  return {
    refresh: () => { draw(); changed(); },
    data,
    ready: () => Boolean(state.checked && state.checked.ok),
  };
}
