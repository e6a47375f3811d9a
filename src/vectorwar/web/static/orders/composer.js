// The AV:T composer: one per ship that moves and, in the same entry, may also fire or add other
// actions (`order_pieces`: pivots, rolls, bias...). It holds the movement radios (ghost and reach
// as in the plain list), a select per piece group and the shot picker. The entry is the ship id,
// the move's body ("hold" only when nothing else is chosen), the chosen pieces in group order,
// then the shots, joined by spaces; the whole order is previewed and checked live, so what only
// fails together (a pivot with a roll, shots over the battery) shows the server's words first.

import { h } from "../dom.js";
import { readComposed } from "./composer-read.js";
import { Plots } from "./plots.js";
import { pieceChip, volleyRow, weaponRow } from "./shots.js";
import { moveBody, norm } from "./text.js";
import { addTypeToggle } from "./type-toggle.js";

export class Composer {
  constructor(shell, panel, ships, draft, colour) {
    this.shell = shell;
    this.panel = panel;
    this.ships = ships;
    this.fire = shell.fireOptionsFor(panel.side) || {};
    this.pieces = shell.scene.order_pieces || {};
    this.plots = new Plots(shell, panel, ships, colour);
    this.picks = {}; // ship -> {group: piece text}
    this.shots = {}; // ship -> [piece]
    this.chips = {}; // ship -> the element listing its chosen shots
    this.selects = {}; // ship -> {group: select}
    this.build(draft);
  }

  groupsOf(ship) {
    return [...new Set((this.pieces[ship] || []).map((p) => p.group))];
  }

  entryOf(ship) {
    const opt = this.plots.chosen[ship];
    if (!opt) return "";
    const extra = [...this.groupsOf(ship).map((g) => (this.picks[ship] || {})[g]).filter(Boolean), ...(this.shots[ship] || [])];
    const body = moveBody(ship, opt);
    const move = body && !(norm(body) === "hold" && extra.length) ? [body] : [];
    return [ship, ...move, ...extra].join(" ");
  }

  text() {
    return this.ships
      .map((s) => this.entryOf(s))
      .filter(Boolean)
      .join("; ");
  }

  showPreview() {
    const { panel, plots } = this;
    if (panel.typed) return;
    plots.showPreview(panel.text());
    const complete = plots.complete();
    panel.commit.disabled = !complete;
    if (complete) {
      panel.say("", "Checking…");
      this.check();
    } else {
      panel.say("", plots.missing());
    }
  }

  changed() {
    this.showPreview();
    this.shell.saveDraft[this.panel.side](this.panel.text());
  }

  showShots(ship) {
    const list = this.shots[ship] || [];
    const remove = (i) => () => {
      this.shots[ship].splice(i, 1);
      this.showShots(ship);
      this.changed();
    };
    this.chips[ship].replaceChildren(
      h("span", { class: "fire-row-label" }, "Firing:"),
      ...(list.length ? list.map((piece, i) => pieceChip(ship, piece, piece, remove(i))) : [h("span", { class: "hint" }, "nothing")]),
    );
    if (this.panel.refreshQueue) this.panel.refreshQueue();
  }

  build(draft) {
    const { shell, panel, ships, plots } = this;
    panel.text = () => this.text();
    this.check = shell.liveCheck(panel, () => panel.text(), () => !panel.typed && plots.complete());
    panel.shotsOf = (ship) => this.shots[ship] || [];
    panel.addShots = (ship, pieces) => {
      if (!this.chips[ship]) return;
      this.shots[ship] = [...(this.shots[ship] || []), ...pieces];
      this.showShots(ship);
      this.changed();
    };
    panel.addShot = (ship, piece) => panel.addShots(ship, [piece]);
    const controls = [];
    for (const ship of ships) {
      const list = plots.list(ship, () => this.changed());
      const box = plots.fieldset(
        ship,
        "ship-plot composer",
        h("div", { class: "composer-part" }, h("span", { class: "composer-label" }, "Move"), list),
      );
      const pieceRow = this.pieceSelects(ship);
      if (pieceRow) box.append(pieceRow);
      const fireRow = this.shotPicker(ship);
      if (fireRow) box.append(fireRow);
      controls.push(box);
      panel.form.append(box);
    }
    controls.push(plots.preview);
    panel.form.append(plots.preview);
    if (Object.keys(this.chips).length) {
      const hint = h(
        "p",
        { class: "hint" },
        "Press a target under “Every weapon at” to fire everything that reaches it, or pick a weapon, then a target " +
          "(a button, or a ringed counter on the map).",
      );
      controls.push(hint);
      panel.form.append(hint);
    }
    const refresh = () => {
      this.showPreview();
      plots.refocus();
    };
    addTypeToggle(shell, panel, controls, { refresh, load: (text) => this.load(text) });
    if (draft && !this.load(draft)) {
      panel.typeOrder(draft);
    } else {
      this.showPreview();
    }
    plots.focusShip(ships[0], plots.chosen[ships[0]]);
  }

  /** One select per piece group of `ship` (first entry "—", none), or null when it has none. */
  pieceSelects(ship) {
    const groups = this.groupsOf(ship);
    if (!groups.length) return null;
    const side = this.panel.side;
    this.selects[ship] = {};
    const row = h("div", { class: "composer-part composer-pieces" });
    for (const group of groups) {
      const offered = this.pieces[ship].filter((p) => p.group === group);
      const select = h(
        "select",
        { class: "piece-select", name: `piece-${side}-${ship}-${group}`, dataset: { ship, group } },
        h("option", { value: "" }, "—"),
        ...offered.map((p) => h("option", { value: p.text }, p.text.startsWith(`${group} `) ? p.text.slice(group.length + 1) : p.text)),
      );
      select.addEventListener("change", () => {
        this.picks[ship] = { ...(this.picks[ship] || {}), [group]: select.value };
        this.changed();
      });
      this.selects[ship][group] = select;
      row.append(h("label", { class: "piece-group" }, h("span", { class: "composer-label" }, group), select));
    }
    return row;
  }

  /** The weapon and target buttons and chosen-shot chips of `ship`, or null when it may not fire. */
  shotPicker(ship) {
    const shipFire = this.fire[ship] || [];
    if (!shipFire.length) return null;
    const targetRow = h("div", { class: "fire-row targets", hidden: true });
    const weapons = weaponRow(this.shell, this.panel, ship, shipFire, targetRow);
    const volleys = volleyRow(this.shell, this.panel, ship, shipFire);
    this.chips[ship] = h("div", { class: "fire-chosen", "aria-live": "polite" });
    this.showShots(ship);
    return h("div", { class: "composer-part composer-fire", dataset: { ship } }, volleys, weapons, targetRow, this.chips[ship]);
  }

  /** Shows a side order in the controls; false (nothing changed) when some part has no control. */
  load(text) {
    const { ships, plots } = this;
    const offers = (ship) => ({
      moves: plots.radios[ship].map(([, opt]) => opt),
      pieces: this.pieces[ship] || [],
      shots: [...new Set((this.fire[ship] || []).map((o) => o.piece))],
    });
    const found = readComposed(text, ships, offers);
    if (!found) return false;
    for (const ship of ships) {
      const got = found[ship];
      plots.chosen[ship] = got ? got.move : undefined;
      plots.check(ship, got ? got.move : null);
      this.picks[ship] = got ? got.picked : {};
      for (const [group, select] of Object.entries(this.selects[ship] || {})) select.value = this.picks[ship][group] || "";
      this.shots[ship] = got ? got.fired : [];
      if (this.chips[ship]) this.showShots(ship);
    }
    return true;
  }
}
