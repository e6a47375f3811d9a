// The VMS composer: a plot is written from its pieces alone (`order_pieces` marked `whole`), one
// select per thruster (the burns it can make now, toward each direction it can push, in whole
// hexes a turn; the group names its side, rating and accel cost), one for the rotation (with the
// rotational burns that pay for it) and one for the flat turn. The entry is the ship id and the
// chosen pieces in group order, or "drift"; it is checked live, and when it is one of the menu's
// plots (`move_options`) its ghost and the ship's reach are drawn, in the warning colour if the
// plot leaves the board. Like the AV:T composer, the order can be typed instead.

import { fill, h } from "../dom.js";
import { Plots } from "./plots.js";
import { entries, moveBody, norm } from "./text.js";
import { addTypeToggle } from "./type-toggle.js";
import { warningMark } from "./warnings.js";

export class VmsComposer {
  constructor(shell, panel, ships, draft, colour) {
    this.shell = shell;
    this.panel = panel;
    this.ships = ships;
    this.colour = colour;
    this.pieces = shell.scene.order_pieces || {};
    this.picks = {}; // ship -> {group: piece text}
    this.selects = {}; // ship -> {group: select}
    this.notes = {}; // ship -> the line under its selects (ghost or not, warnings)
    this.whole = {}; // ship -> a menu plot's body picked that the selects cannot show
    // The menu of whole plots stays beside the selects: picking one sets the selects to it, and a
    // click on a reachable hex picks the plot ending there.
    this.plots = new Plots(shell, panel, ships, colour);
    this.preview = this.plots.preview;
    this.build(draft);
  }

  groupsOf(ship) {
    return [...new Set((this.pieces[ship] || []).map((p) => p.group))];
  }

  entryOf(ship) {
    // A menu plot the selects cannot show (its rotation burns split another way) is sent as picked.
    if (this.whole[ship]) return `${ship} ${this.whole[ship]}`;
    const chosen = this.groupsOf(ship)
      .map((g) => (this.picks[ship] || {})[g])
      .filter(Boolean);
    return `${ship} ${chosen.length ? chosen.join(" ") : "drift"}`;
  }

  text() {
    return this.ships.map((s) => this.entryOf(s)).join("; ");
  }

  /** The menu plot with exactly this entry, for its ghost (null: not in the menu). */
  menuPlot(ship) {
    const want = norm(this.entryOf(ship));
    return (this.shell.scene.move_options[ship] || []).find((o) => norm(o.text) === want) || null;
  }

  focus(ship) {
    const option = this.menuPlot(ship);
    this.plots.chosen[ship] = option || undefined;
    this.plots.check(ship, option);
    this.shell.focusPlot(ship, option, this.colour);
    const note = this.notes[ship];
    if (!note) return;
    fill(
      note,
      option
        ? h("span", { class: "hint" }, `ghost: ends at ${option.end.hex}${option.facing ? `, facing ${option.facing}` : ""}`)
        : h("span", { class: "hint" }, "no ghost for this mix of burns (the menu has plots toward one direction); the check still judges it"),
      option ? warningMark(option) : null,
    );
  }

  changed(ship) {
    const { panel } = this;
    if (panel.typed) return;
    const text = panel.text();
    this.preview.replaceChildren("Order: ", h("code", { "data-order": text }, text));
    this.focus(ship);
    panel.say("", "Checking…");
    this.check();
    this.shell.saveDraft[panel.side](text);
  }

  build(draft) {
    const { shell, panel, ships } = this;
    panel.text = () => this.text();
    this.check = shell.liveCheck(panel, () => panel.text(), () => !panel.typed);
    const controls = [];
    for (const ship of ships) {
      this.selects[ship] = {};
      this.notes[ship] = h("p", { class: "vms-ghost-note" });
      const rows = this.groupsOf(ship).map((group) => this.select(ship, group));
      const list = this.plots.list(ship, () => {
        const chosen = this.plots.chosen[ship];
        this.whole[ship] = chosen && !this.loadEntry(ship, moveBody(ship, chosen)) ? moveBody(ship, chosen) : "";
        this.changed(ship);
      });
      const box = this.plots.fieldset(
        ship,
        "ship-plot composer vms-composer",
        h("p", { class: "hint" }, "Compose the burns and the rotation, or pick a whole plot from the menu."),
        h("div", { class: "composer-part composer-pieces" }, ...rows),
        this.notes[ship],
        h("details", { class: "vms-menu", open: true }, h("summary", {}, "Menu of whole plots"), list),
      );
      box.addEventListener("focusin", () => this.focus(ship));
      controls.push(box);
      panel.form.append(box);
    }
    controls.push(this.preview);
    panel.form.append(this.preview);
    const refresh = () => this.changed(ships[0]);
    addTypeToggle(shell, panel, controls, { refresh, load: (text) => this.load(text) });
    if (draft && !this.load(draft)) panel.typeOrder(draft);
    else this.changed(ships[0]);
  }

  select(ship, group) {
    const side = this.panel.side;
    const offered = this.pieces[ship].filter((p) => p.group === group);
    const select = h(
      "select",
      { class: "piece-select", name: `piece-${side}-${ship}-${group}`, dataset: { ship, group } },
      h("option", { value: "" }, "—"),
      ...offered.map((p) => h("option", { value: p.text }, p.text)),
    );
    select.addEventListener("change", () => {
      this.whole[ship] = "";
      this.picks[ship] = { ...(this.picks[ship] || {}), [group]: select.value };
      this.changed(ship);
    });
    this.selects[ship][group] = select;
    return h("label", { class: "piece-group" }, h("span", { class: "composer-label" }, group), select);
  }

  /** The groups' picks that write `body` (any order of pieces), or null when some word is no piece. */
  picksFor(ship, body) {
    const picked = {};
    let left = norm(body) === "drift" ? "" : norm(body);
    while (left) {
      const piece = (this.pieces[ship] || []).find(
        (p) => !picked[p.group] && (left === norm(p.text) || left.startsWith(`${norm(p.text)} `)),
      );
      if (!piece) return null;
      picked[piece.group] = piece.text;
      left = left.slice(norm(piece.text).length).trim();
    }
    return picked;
  }

  loadEntry(ship, body) {
    const picked = this.picksFor(ship, body);
    if (!picked) return false;
    this.picks[ship] = picked;
    for (const [group, select] of Object.entries(this.selects[ship])) select.value = picked[group] || "";
    return true;
  }

  /** Show a typed order in the selects; false when some word is no piece of its ship. */
  load(text) {
    const found = {};
    for (const entry of entries(text)) {
      const [first, ...rest] = entry.split(/\s+/);
      const ship = this.ships.find((s) => norm(s) === norm(first));
      const picked = ship ? this.picksFor(ship, rest.join(" ")) : null;
      if (!picked) return false;
      found[ship] = picked;
    }
    for (const ship of this.ships) this.loadEntry(ship, Object.values(found[ship] || {}).join(" "));
    return true;
  }
}

/** Whether the scene's pieces for `ships` write whole plots (VMS), so this composer is the form. */
export function composesWhole(scene, ships) {
  const pieces = scene.order_pieces || {};
  return ships.some((s) => (pieces[s] || []).some((p) => p.whole));
}
