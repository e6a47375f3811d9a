// The VMS composer: a plot is written from its pieces alone (`order_pieces` marked `whole`), one
// select per thruster (the burns it can make now, toward each direction it can push, in whole
// hexes a turn; the group names its side, rating and accel cost), one for the rotation (with the
// rotational burns that pay for it) and one for the flat turn. The entry is the ship id and the
// chosen pieces in group order, or "drift"; it is checked live, and when it is one of the menu's
// plots (`move_options`) its ghost and the ship's reach are drawn, in the warning colour if the
// plot leaves the board. Like the AV:T composer, the order can be typed instead.

import { fill, h } from "../dom.js";
import { entries, norm } from "./text.js";
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
    this.preview = h("p", { class: "order-preview" });
    shell.activePicker = null;
    this.build(draft);
  }

  groupsOf(ship) {
    return [...new Set((this.pieces[ship] || []).map((p) => p.group))];
  }

  entryOf(ship) {
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
    this.shell.saveDraft[panel.seat](text);
  }

  build(draft) {
    const { shell, panel, ships } = this;
    panel.text = () => this.text();
    this.check = shell.liveCheck(panel, () => panel.text(), () => !panel.typed);
    const controls = [];
    for (const ship of ships) {
      const counter = shell.counter(ship);
      const where = counter ? ` at ${counter.hex}${counter.velocity ? `, ${counter.velocity}` : ""}, facing ${counter.facing}` : "";
      this.selects[ship] = {};
      this.notes[ship] = h("p", { class: "vms-ghost-note" });
      const rows = this.groupsOf(ship).map((group) => this.select(ship, group));
      const box = h(
        "fieldset",
        { class: "ship-plot composer vms-composer", dataset: { ship } },
        h("legend", {}, `${ship}${where}`),
        h("div", { class: "composer-part composer-pieces" }, ...rows),
        this.notes[ship],
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
    const seat = this.panel.seat;
    const offered = this.pieces[ship].filter((p) => p.group === group);
    const select = h(
      "select",
      { class: "piece-select", name: `piece-${seat}-${ship}-${group}`, dataset: { ship, group } },
      h("option", { value: "" }, "—"),
      ...offered.map((p) => h("option", { value: p.text }, p.text)),
    );
    select.addEventListener("change", () => {
      this.picks[ship] = { ...(this.picks[ship] || {}), [group]: select.value };
      this.changed(ship);
    });
    this.selects[ship][group] = select;
    return h("label", { class: "piece-group" }, h("span", { class: "composer-label" }, group), select);
  }

  /** Show a typed order in the selects; false when some word is no piece of its ship. */
  load(text) {
    const found = {};
    for (const entry of entries(text)) {
      const [first, ...rest] = entry.split(/\s+/);
      const ship = this.ships.find((s) => norm(s) === norm(first));
      if (!ship) return false;
      const body = norm(rest.join(" "));
      const picked = {};
      let left = body === "drift" ? "" : body;
      for (const group of this.groupsOf(ship)) {
        const piece = this.pieces[ship].find((p) => p.group === group && (left === norm(p.text) || left.startsWith(`${norm(p.text)} `)));
        if (piece) {
          picked[group] = piece.text;
          left = left.slice(norm(piece.text).length).trim();
        }
      }
      if (left) return false;
      found[ship] = picked;
    }
    for (const ship of this.ships) {
      this.picks[ship] = found[ship] || {};
      for (const [group, select] of Object.entries(this.selects[ship])) select.value = this.picks[ship][group] || "";
    }
    return true;
  }
}

/** Whether the scene's pieces for `ships` write whole plots (VMS), so this composer is the form. */
export function composesWhole(scene, ships) {
  const pieces = scene.order_pieces || {};
  return ships.some((s) => (pieces[s] || []).some((p) => p.whole));
}
