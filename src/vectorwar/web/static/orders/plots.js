// The movement plots of a side's ships, shared by the plain move picker and the AV:T composer:
// one radio list per ship from `move_options` (hover, focus or choice draws the plot's ghost and
// shades the ship's reach), each in a fieldset headed by the ship, and the preview of the order.

import { h } from "../dom.js";
import { moveBody } from "./text.js";
import { warned, warningMark } from "./warnings.js";

export class Plots {
  /**
   * `shell` is the orders panel (scene, map, focus); `panel` the side's form. Registers itself as
   * the panel's active picker, so a click on a shaded hex picks the plot ending there.
   */
  constructor(shell, panel, ships, colour) {
    this.shell = shell;
    this.panel = panel;
    this.ships = ships;
    this.chosen = {}; // ship id -> the chosen move option
    this.radios = {}; // ship id -> [[input, option], ...]
    this.preview = h("p", { class: "order-preview" });
    this.focusShip = (ship, option) => shell.focusPlot(ship, option || this.chosen[ship] || null, colour);
    shell.activePicker = { ships, chosen: this.chosen, focusShip: this.focusShip, panel };
  }

  complete() {
    return this.ships.every((s) => this.chosen[s]);
  }

  /** "Choose a plot for s1, s2." while some ship has none. */
  missing() {
    return `Choose a plot for ${this.ships.filter((s) => !this.chosen[s]).join(", ")}.`;
  }

  showPreview(text) {
    this.preview.replaceChildren("Order: ", h("code", { "data-order": text }, text || "—"));
  }

  /** Show the ship being worked with again (after the typed line is put away). */
  refocus() {
    const active = this.shell.activeShip;
    this.focusShip(this.ships.includes(active) ? active : this.ships[0]);
  }

  /** A ship's fieldset: its legend ("s1 at 3,4, 2B · 12 legal plots") and then `parts`. */
  fieldset(ship, cls, ...parts) {
    const counter = this.shell.counter(ship);
    const count = this.shell.scene.move_options[ship].length;
    const where = counter ? ` at ${counter.hex}${counter.velocity ? `, ${counter.velocity}` : ""}` : "";
    return h(
      "fieldset",
      { class: cls, dataset: { ship } },
      h("legend", {}, `${ship}${where}`, h("span", { class: "count" }, ` ${count} legal plots`)),
      ...parts,
    );
  }

  /** Tick the radio of `option` for `ship` (or none, for null). */
  check(ship, option) {
    for (const [input, opt] of this.radios[ship]) input.checked = Boolean(option) && opt === option;
  }

  /**
   * A ship's legal plots as a radio group: choosing one records it in `chosen` and calls
   * `picked`; focus and hover show its ghost.
   */
  list(ship, picked) {
    const shell = this.shell;
    const side = this.panel.side;
    const chosen = this.chosen;
    const counter = shell.counter(ship);
    const list = h("div", { class: "options", role: "radiogroup", "aria-label": `Plots for ${ship}` });
    const inputs = [];
    for (const [i, opt] of shell.scene.move_options[ship].entries()) {
      const end = opt.end || opt.path[opt.path.length - 1];
      const id = `opt-${side}-${ship}-${i}`;
      const input = h("input", {
        type: "radio",
        name: `plot-${side}-${ship}`,
        id,
        value: opt.text,
        dataset: { ship, end: end.hex, facing: opt.facing || "" },
      });
      inputs.push([input, opt]);
      input.addEventListener("change", () => {
        chosen[ship] = opt;
        this.focusShip(ship, opt);
        picked();
      });
      input.addEventListener("focus", () => {
        this.focusShip(ship, chosen[ship]);
        if (counter) shell.map.ensureVisible(counter.hex, counter.altitude);
      });
      const label = h(
        "label",
        { for: id, class: warned(opt) ? "option warned" : "option", dataset: { end: end.hex } },
        input,
        h("span", { class: "opt-text" }, moveBody(ship, opt)),
        h("span", { class: "opt-end" }, `→ ${end.hex}${end.altitude ? ` alt ${end.altitude}` : ""}${opt.facing ? ` ${opt.facing}` : ""}`),
        warningMark(opt),
      );
      label.addEventListener("mouseenter", () => this.focusShip(ship, opt));
      label.addEventListener("mouseleave", () => this.focusShip(ship, chosen[ship]));
      list.append(label);
    }
    this.radios[ship] = inputs;
    return list;
  }
}
