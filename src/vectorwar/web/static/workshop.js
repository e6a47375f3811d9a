// The designer's workshop (docs/web.md, "The designer's workshop"): pick a system, start from a
// catalogue design or a blank one, change fields; after each change the server checks the design
// with the system's own design rules and answers what is illegal, which rule says so, and the
// record card. Legal designs go to the player's fleet, kept on the server under a fleet token
// this browser makes and keeps.

import { Api } from "./api.js";
import { renderCards } from "./cards.js";
import { fill, h } from "./dom.js";
import { designForm } from "./workshop-form.js";
import { labPanel, watchSaveFile } from "./workshop-lab.js";
import { scenarioEditor } from "./workshop-scenario.js";

const FLEET_KEY = "vectorwar.fleet";
const $ = (id) => document.getElementById(id);

function fleetToken() {
  let token = null;
  try {
    token = localStorage.getItem(FLEET_KEY);
  } catch {
    // Storage refused (a private window): the fleet lasts as long as the page.
  }
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    try {
      localStorage.setItem(FLEET_KEY, token);
    } catch {
      // as above
    }
  }
  return token;
}

const api = new Api(fleetToken());
const state = { systems: [], current: null, design: {}, checked: null, seq: 0, timer: null, fleet: [], editor: null };

function message(text, bad = false) {
  const p = $("ws-message");
  p.textContent = text;
  p.classList.toggle("error", bad);
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function key() {
  return $("ws-key").value.trim();
}

// -- checking ----------------------------------------------------------------------------------

function scheduleCheck() {
  clearTimeout(state.timer);
  state.timer = setTimeout(check, 150);
}

async function check() {
  const sys = state.current;
  if (!sys || !sys.editable) return;
  const seq = ++state.seq;
  document.body.dataset.checking = "true";
  try {
    const answer = await api.request("POST", `/api/workshop/${encodeURIComponent(sys.system)}/check`, {
      key: key(),
      design: state.design,
    });
    if (seq !== state.seq) return;
    showVerdict(answer);
  } catch (err) {
    if (seq !== state.seq) return;
    showVerdict(null, err instanceof ApiError ? err.message : String(err));
  } finally {
    if (seq === state.seq) document.body.dataset.checking = "false";
  }
}

function showVerdict(answer, refused = null) {
  state.checked = answer;
  const verdict = $("ws-verdict");
  const legal = Boolean(answer && answer.legal);
  verdict.className = `verdict ${legal ? "legal" : "illegal"}`;
  verdict.textContent = refused
    ? `Cannot check this design: ${refused}`
    : legal
      ? "Legal: this design follows the rules."
      : "Illegal: the rules refuse this design.";
  document.body.dataset.legal = String(legal);
  for (const node of document.querySelectorAll(".design-form .broken")) node.classList.remove("broken");
  const problems = (answer && answer.problems) || [];
  fill(
    $("ws-problems"),
    problems.map((p) => {
      const where = p.field ? document.querySelector(`.design-form [data-field="${CSS.escape(p.field)}"]`) : null;
      if (where) where.classList.add("broken");
      return h(
        "li",
        { dataset: { field: p.field } },
        h("strong", {}, p.field || "the design"),
        `: ${p.message}`,
        p.rule ? h("span", { class: "rule" }, `Rule: ${p.rule}`) : null,
        p.about && p.about !== p.rule ? h("span", { class: "about" }, p.about) : null,
      );
    }),
  );
  renderCards($("ws-card"), (answer && answer.cards) || [], {}, { system: state.current && state.current.system });
  $("ws-save").disabled = !legal;
}

// -- choosing a system and a starting design ------------------------------------------------------

function startOptions(sys) {
  const keys = Object.keys(sys.catalogue || {});
  const options = keys.map((k) => h("option", { value: k }, `${k}: ${sys.catalogue[k].name || k}`));
  if (sys.editable) options.push(h("option", { value: "" }, "A blank design"));
  fill($("ws-start"), options);
}

// A design's data as it is: tables as nested lists of fields, lists of plain values on one line.
function plainValue(v) {
  if (v === null || typeof v !== "object") return String(v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object") && !v.some((x) => String(x).length > 30)) return v.join(", ");
    return h("ol", {}, ...v.map((x) => h("li", {}, plainValue(x))));
  }
  return h("dl", { class: "readonly" }, ...fields(v));
}

function fields(table) {
  return Object.entries(table || {}).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, plainValue(v))]);
}

function showReadOnly(table) {
  fill($("ws-readonly"), fields(table));
}

function load(design, designKey = null) {
  const sys = state.current;
  if (designKey) $("ws-key").value = designKey;
  state.checked = null;
  $("ws-key").readOnly = !sys.editable;
  $("ws-export-one").hidden = !sys.editable;
  $("ws-save").hidden = !sys.editable;
  if (!sys.editable) {
    $("ws-form").hidden = true;
    $("ws-readonly").hidden = false;
    showReadOnly(design);
    $("ws-verdict").className = "verdict";
    $("ws-verdict").textContent = "Read only: this system has no ship designer here, so each design is shown as its data holds it.";
    fill($("ws-problems"));
    fill($("ws-card"));
    $("ws-save").disabled = true;
    return;
  }
  $("ws-form").hidden = false;
  $("ws-readonly").hidden = true;
  state.design = designForm($("ws-form"), sys.schema, design, (next) => {
    state.design = next;
    scheduleCheck();
  });
  scheduleCheck();
}

function chooseSystem(name) {
  state.current = state.systems.find((s) => s.system === name) || state.systems[0];
  document.body.dataset.system = state.current.system;
  startOptions(state.current);
  chooseStart();
}

function chooseStart() {
  const sys = state.current;
  const k = $("ws-start").value;
  if (!k) {
    load({}, "mydesign");
    return;
  }
  load(structuredClone(sys.catalogue[k]), sys.editable ? `my-${k}`.slice(0, 40) : k);
}

// -- the fleet ---------------------------------------------------------------------------------

async function refreshFleet() {
  let answer;
  try {
    answer = await api.request("GET", "/api/workshop/fleet");
  } catch (err) {
    fill($("ws-fleet"), h("li", { class: "error" }, err.message));
    return;
  }
  state.fleet = answer.designs;
  if (state.editor) state.editor.refresh();
  const rows = answer.designs.map((d) =>
    h(
      "li",
      { dataset: { system: d.system, key: d.key } },
      h("span", { class: "name" }, `${d.system} · ${d.key}: ${d.design.name || ""}`),
      h("button", { type: "button", onclick: () => openSaved(d) }, "Open"),
      h("button", { type: "button", onclick: () => removeSaved(d) }, "Delete"),
    ),
  );
  fill($("ws-fleet"), rows.length ? rows : h("li", { class: "hint" }, `No designs yet (a fleet holds up to ${answer.limit}).`));
}

function openSaved(d) {
  $("ws-system").value = d.system;
  state.current = state.systems.find((s) => s.system === d.system);
  document.body.dataset.system = d.system;
  startOptions(state.current);
  load(d.design, d.key);
}

async function removeSaved(d) {
  try {
    await api.request("DELETE", `/api/workshop/fleet/${encodeURIComponent(d.system)}/${encodeURIComponent(d.key)}`);
    message(`Deleted ${d.key} from your fleet.`);
  } catch (err) {
    message(err.message, true);
  }
  refreshFleet();
}

async function save() {
  const sys = state.current;
  try {
    await api.request("PUT", `/api/workshop/fleet/${encodeURIComponent(sys.system)}/${encodeURIComponent(key())}`, {
      design: state.design,
    });
    message(`Saved ${key()} to your fleet.`);
  } catch (err) {
    message(err.rule ? `${err.message} (${err.rule})` : err.message, true);
  }
  refreshFleet();
}

async function exportFleet() {
  const sys = state.current;
  const res = await fetch(`/api/workshop/fleet/${encodeURIComponent(sys.system)}.toml`, {
    headers: { Authorization: `Bearer ${api.token}` },
  });
  const text = await res.text();
  if (!res.ok) {
    let why = text;
    try {
      why = JSON.parse(text).error.message;
    } catch {
      // not the server's JSON: show it as it came
    }
    message(why, true);
    return;
  }
  download(`${sys.system}-fleet.toml`, text);
  message(`Exported your fleet's ${sys.system} designs.`);
}

async function importFile(file) {
  const sys = state.current;
  if (file.size > 60_000) {
    message(`${file.name} is ${file.size} bytes; a designs file may be at most 60,000.`, true);
    return;
  }
  try {
    const answer = await api.request("POST", `/api/workshop/${encodeURIComponent(sys.system)}/import`, {
      toml: await file.text(),
    });
    const first = answer.designs[0];
    const legal = answer.designs.filter((d) => d.legal).length;
    message(`Read ${answer.designs.length} designs from ${file.name} (${legal} legal); showing ${first.key}.`);
    load(first.design, first.key);
  } catch (err) {
    message(err.message, true);
  }
}

// -- watching a save file ----------------------------------------------------------------------

async function watchSave(file) {
  const said = $("ws-watch-message");
  said.textContent = `Replaying ${file.name} on the server…`;
  try {
    await watchSaveFile(await file.text());
  } catch (err) {
    said.textContent = `${file.name}: ${err.message || err}`;
  }
}

// -- start -------------------------------------------------------------------------------------

async function main() {
  state.systems = await api.request("GET", "/api/workshop/systems");
  fill(
    $("ws-system"),
    state.systems.map((s) => h("option", { value: s.system }, s.editable ? s.title : `${s.title} (read only)`)),
  );
  $("ws-system").addEventListener("change", () => chooseSystem($("ws-system").value));
  $("ws-start").addEventListener("change", chooseStart);
  $("ws-key").addEventListener("input", scheduleCheck);
  $("ws-save").addEventListener("click", save);
  $("ws-export").addEventListener("click", exportFleet);
  $("ws-export-one").addEventListener("click", () => {
    if (state.checked) download(`${key()}.toml`, state.checked.toml);
  });
  $("ws-fleet-key").value = api.token;
  $("ws-fleet-use").addEventListener("click", () => {
    const key = $("ws-fleet-key").value.trim();
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(key)) {
      message("A fleet key is 20 to 100 letters, digits, - or _.", true);
      return;
    }
    api.token = key;
    try {
      localStorage.setItem(FLEET_KEY, key);
    } catch {
      // the key still serves this page
    }
    message("Now using that fleet.");
    refreshFleet();
  });
  $("ws-import").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) importFile(file);
    e.target.value = "";
  });
  $("ws-watch").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (file) watchSave(file);
    e.target.value = "";
  });
  const wanted = new URLSearchParams(window.location.search).get("system");
  const first = state.systems.find((s) => s.system === wanted) || state.systems.find((s) => s.editable) || state.systems[0];
  $("ws-system").value = first.system;
  chooseSystem(first.system);
  await refreshFleet();
  const lobbySystems = await api.systems();
  state.editor = scenarioEditor(api, $("sc-editor"), state.systems, lobbySystems, () => state.fleet);
  labPanel(api, state.editor);
  document.body.dataset.ready = "true";
}

main().catch((err) => message(err.message || String(err), true));
