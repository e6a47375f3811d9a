// Set-up phases as panels of buttons (the scene's `setup` menu for a side): a purchase or a
// placement is a pick among the orders the rule system offers, each with its cost and stats;
// a fleet is built from catalogue designs and a designer of ratings and weapon sides, with the
// points spent and left; a deployment gives each ship a hex of its side's zone and a starting
// SPEED. Every order it writes is the engine's own notation, checked live.

import { h } from "../dom.js";

/** Fill `panel` with the set-up menu's form; `panel.text()` is the order as chosen so far. */
export function buildSetupPanel(shell, panel, menu, draft) {
  const check = shell.liveCheck(panel, () => panel.text(), () => true);
  const changed = () => {
    check();
    shell.saveDraft[panel.side](panel.text());
  };
  const box = h("section", { class: `setup-panel setup-${menu.kind}`, "aria-label": menu.title });
  box.append(h("h4", { class: "setup-title" }, menu.title));
  if (menu.kind === "fleet") buildFleet(box, panel, menu, draft, changed);
  else if (menu.kind === "deploy") buildDeploy(box, panel, menu, draft, changed);
  else buildPick(box, panel, menu, draft, changed);
  panel.form.append(box);
  if (panel.text()) check();
}

const money = (n, unit) => (unit ? `${n} ${unit}` : String(n));

/** One option is the whole order: buttons by group, and a finishing button when allowed. */
function buildPick(box, panel, menu, draft, changed) {
  let chosen = menu.options.some((o) => o.order === draft) || draft === menu.finish ? draft : "";
  const left = h("p", { class: "setup-left", role: "status" });
  const buttons = [];
  const show = () => {
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.order === chosen));
    if (menu.left === null || menu.left === undefined) {
      left.textContent = chosen ? `Chosen: ${chosen}` : "Pick one.";
      return;
    }
    const option = menu.options.find((o) => o.order === chosen);
    const after = option ? menu.left - option.cost : menu.left;
    left.textContent = option
      ? `${money(menu.left, menu.unit)} to spend; ${money(after, menu.unit)} left after this`
      : `${money(menu.left, menu.unit)} to spend`;
  };
  const choose = (order) => {
    chosen = order;
    show();
    changed();
  };
  panel.text = () => chosen;
  box.append(left);
  const groups = new Map();
  for (const option of menu.options) {
    if (!groups.has(option.group)) groups.set(option.group, []);
    groups.get(option.group).push(option);
  }
  for (const [group, options] of groups) {
    const card = h("div", { class: "setup-group", dataset: { group } });
    const stats = options[0].stats;
    card.append(h("div", { class: "setup-group-head" }, h("strong", {}, titleOf(group)), stats ? h("span", { class: "setup-stats" }, stats) : null));
    const row = h("div", { class: "setup-options" });
    for (const option of options) {
      const cost = option.cost ? ` · ${money(option.cost, menu.unit)}` : "";
      const b = h(
        "button",
        { type: "button", class: "setup-option", dataset: { order: option.order }, title: option.order, onclick: () => choose(option.order) },
        `${option.label}${cost}`,
      );
      buttons.push(b);
      row.append(b);
    }
    card.append(row);
    box.append(card);
  }
  if (menu.finish) {
    const b = h(
      "button",
      { type: "button", class: "setup-option setup-finish", dataset: { order: menu.finish }, onclick: () => choose(menu.finish) },
      menu.unit ? `Done: buy nothing more` : "Done",
    );
    buttons.push(b);
    box.append(h("div", { class: "setup-options" }, b));
  }
  show();
}

function titleOf(group) {
  return group ? group.charAt(0).toUpperCase() + group.slice(1) : "";
}

/** Many entries make the order: catalogue designs and written-out ones, named and listed. */
function buildFleet(box, panel, menu, draft, changed) {
  const custom = menu.custom || {};
  const entries = parseFleet(draft, menu, custom);
  const budget = menu.budget || 0;
  const maxShips = custom.max_ships || 99;
  const status = h("p", { class: "setup-left", role: "status" });
  const list = h("ol", { class: "setup-fleet" });
  const catalogueButtons = [];
  const spent = () => entries.reduce((sum, e) => sum + e.cost, 0);
  const nextName = () => {
    const taken = new Set(entries.map((e) => e.name.toLowerCase()));
    for (let n = 1; ; n += 1) {
      const name = `${custom.prefix || "S"}${n}`;
      if (!taken.has(name.toLowerCase())) return name;
    }
  };
  panel.text = () => entries.map((e) => `${e.name} ${e.design}`).join("; ");
  const refresh = (edited = true) => {
    const left = budget - spent();
    status.textContent = `${money(spent(), menu.unit)} spent of ${money(budget, menu.unit)}; ${money(left, menu.unit)} left; ${entries.length} of ${maxShips} ships`;
    list.replaceChildren(
      ...entries.map((e, i) =>
        h(
          "li",
          { dataset: { entry: `${e.name} ${e.design}` } },
          h("span", { class: "setup-entry" }, `${e.name}: ${e.label} · ${money(e.cost, menu.unit)}`),
          h("button", { type: "button", class: "setup-remove", "aria-label": `Remove ${e.name}`, onclick: () => { entries.splice(i, 1); refresh(); } }, "✕"),
        ),
      ),
    );
    for (const b of catalogueButtons) b.disabled = Number(b.dataset.cost) > left || entries.length >= maxShips;
    designer.update(left);
    if (edited) changed();
  };
  const add = (design, label, cost) => {
    entries.push({ name: nextName(), design, label, cost });
    refresh();
  };
  box.append(status, list);
  const cat = h("div", { class: "setup-options setup-catalogue" });
  for (const option of menu.options) {
    const b = h(
      "button",
      { type: "button", class: "setup-option", dataset: { order: option.order, cost: option.cost }, title: option.stats, onclick: () => add(option.order, option.label, option.cost) },
      `+ ${option.label} · ${money(option.cost, menu.unit)}`,
    );
    catalogueButtons.push(b);
    cat.append(h("div", { class: "setup-group" }, b, h("span", { class: "setup-stats" }, option.stats)));
  }
  box.append(h("h5", {}, "From the catalogue"), cat);
  const designer = buildDesigner(custom, menu.unit, add);
  if (custom.ratings) box.append(h("h5", {}, "Your own design"), designer.node);
  refresh(false);
}

/** Number inputs for the ratings and a box per weapon side; its button adds the design written out. */
function buildDesigner(custom, unit, add) {
  const ratings = custom.ratings || [];
  const inputs = ratings.map((r) =>
    h("input", { type: "number", min: r.min, max: r.max, value: Math.max(r.min, Math.min(r.max, 3)), "aria-label": r.label, dataset: { rating: r.name } }),
  );
  const sides = (custom.sides || []).map((s) => h("input", { type: "checkbox", value: s, "aria-label": `weapon ${s}` }));
  const button = h("button", { type: "button", class: "setup-option setup-custom" }, "");
  const node = h(
    "div",
    { class: "setup-designer" },
    ...ratings.map((r, i) => h("label", {}, `${r.label} `, inputs[i])),
    h("span", { class: "setup-sides" }, "Weapons ", ...sides.map((box) => h("label", {}, box, box.value))),
    button,
  );
  let left = 0;
  const design = () => {
    const values = inputs.map((i) => Number(i.value));
    const chosen = sides.filter((s) => s.checked).map((s) => s.value);
    const cost = values.reduce((a, v) => a + v * (custom.rating_cost || 1), 0) + chosen.length * (custom.weapon_cost || 0);
    const ok = values.every((v, i) => Number.isInteger(v) && v >= ratings[i].min && v <= ratings[i].max) && cost <= (custom.max_cost || cost);
    return { text: [values.join("/"), ...chosen].join(" "), cost, ok };
  };
  const update = (newLeft = left) => {
    left = newLeft;
    const d = design();
    button.textContent = `+ ${d.text} · ${money(d.cost, unit)}`;
    button.disabled = !d.ok || d.cost > left;
    button.title = d.ok ? "" : `at most ${custom.max_cost} ${unit} a ship, each rating within its limits`;
  };
  for (const el of [...inputs, ...sides]) el.addEventListener("input", () => update());
  button.addEventListener("click", () => {
    const d = design();
    if (d.ok && d.cost <= left) add(d.text, d.text, d.cost);
  });
  return { node, update };
}

/** A draft fleet read back into entries (costs of catalogue designs from the menu, others summed). */
function parseFleet(draft, menu, custom) {
  const out = [];
  for (const part of (draft || "").split(";")) {
    const words = part.trim().split(/\s+/);
    if (words.length < 2) continue;
    const [name, design, ...rest] = words;
    const option = menu.options.find((o) => o.order === design.toLowerCase());
    if (option) {
      out.push({ name, design: option.order, label: option.label, cost: option.cost });
    } else if (/^\d+\/\d+\/\d+$/.test(design)) {
      const cost = design.split("/").reduce((a, v) => a + Number(v), 0) + rest.length * (custom.weapon_cost || 0);
      const text = [design, ...rest].join(" ");
      out.push({ name, design: text, label: text, cost });
    }
  }
  return out;
}

/** One row per ship: a hex of the zone and a starting SPEED from 0 to its ENGINE; the rows make the order. */
function buildDeploy(box, panel, menu, draft, changed) {
  const custom = menu.custom || {};
  const drafted = new Map();
  for (const part of (draft || "").split(";")) {
    const [name, at, speed] = part.trim().split(/\s+/);
    if (name && at && speed !== undefined) drafted.set(name.toLowerCase(), { at, speed });
  }
  const rows = (custom.ships || []).map((ship) => {
    const old = drafted.get(ship.id.toLowerCase()) || {};
    const hexes = custom.hexes || [];
    const at = h(
      "select",
      { "aria-label": `${ship.id} start hex`, dataset: { ship: ship.id } },
      ...hexes.map((x) => h("option", { value: x }, x)),
    );
    at.value = hexes.includes(old.at) ? old.at : ship.at;
    const speeds = Array.from({ length: ship.max_speed + 1 }, (_, n) => String(n));
    const speed = h(
      "select",
      { "aria-label": `${ship.id} starting SPEED`, dataset: { ship: ship.id } },
      ...speeds.map((n) => h("option", { value: n }, n)),
    );
    speed.value = speeds.includes(old.speed) ? old.speed : String(ship.speed);
    for (const el of [at, speed]) el.addEventListener("change", () => changed());
    const node = h(
      "div",
      { class: "setup-group setup-deploy-ship", dataset: { ship: ship.id } },
      h("strong", {}, `${ship.id} `),
      h("span", { class: "setup-stats" }, `${ship.label}, ENGINE ${ship.max_speed}`),
      h("label", {}, " at ", at),
      h("label", {}, " SPEED ", speed),
    );
    return { id: ship.id, at, speed, node };
  });
  panel.text = () => rows.map((r) => `${r.id} ${r.at.value} ${r.speed.value}`).join("; ");
  box.append(
    h("p", { class: "setup-left", role: "status" }, `Every ship starts heading ${custom.facing || ""}.`),
    ...rows.map((r) => r.node),
  );
}
