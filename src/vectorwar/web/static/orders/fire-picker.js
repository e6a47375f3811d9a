// The fire picker, under the order line when the scene lists this side's legal shots: per ship,
// one "every weapon at" button per target, weapon buttons, then buttons for that weapon's legal
// targets (or a click on a ringed counter);
// each adds its piece to the ship's entry in the line, and the chosen pieces are listed as chips
// that remove themselves. The line stays the one truth, so typing and clicking mix freely and
// live validation covers both. With nothing chosen the order is "hold".

import { h } from "../dom.js";
import { pieceChip, volleyRow, weaponRow } from "./shots.js";
import { firePieces, fireText } from "./text.js";

/** `panel` has its order line (`panel.input`, `panel.edited()`); `fire` is {ship: [shot]}. */
export function buildFirePicker(shell, panel, fire) {
  const input = panel.input;
  const box = h("div", { class: "fire-picker" });
  const chosen = h("div", { class: "fire-chosen", "aria-live": "polite" });
  const write = (pieces) => {
    input.value = fireText(pieces);
    panel.edited();
    showChosen();
  };
  const showChosen = () => {
    const pieces = firePieces(input.value);
    const nodes = [h("span", { class: "fire-row-label" }, "Firing:")];
    let any = false;
    for (const [ship, list] of Object.entries(pieces)) {
      for (const [i, piece] of list.entries()) {
        any = true;
        const remove = () => {
          const now = firePieces(input.value);
          (now[ship] || []).splice(i, 1);
          write(now);
        };
        nodes.push(pieceChip(ship, piece, `${ship} ${piece}`, remove));
      }
    }
    if (any) {
      nodes.push(h("button", { type: "button", class: "secondary clear-fire", onclick: () => write({}) }, "Clear (hold fire)"));
    } else {
      nodes.push(h("span", { class: "hint" }, "nothing: the order is hold"));
    }
    chosen.replaceChildren(...nodes);
    if (panel.refreshQueue) panel.refreshQueue();
  };
  panel.addShots = (ship, added) => {
    const pieces = firePieces(input.value);
    pieces[ship] = [...(pieces[ship] || []), ...added];
    write(pieces);
  };
  panel.addShot = (ship, piece) => panel.addShots(ship, [piece]);
  panel.shotsOf = (ship) => firePieces(input.value)[ship] || [];
  input.addEventListener("input", showChosen);
  for (const [ship, options] of Object.entries(fire)) {
    const counter = shell.counter(ship);
    const targetRow = h("div", { class: "fire-row targets", hidden: true });
    const weapons = weaponRow(shell, panel, ship, options, targetRow);
    const volleys = volleyRow(shell, panel, ship, options);
    const where = counter ? ` at ${counter.hex}` : "";
    box.append(h("fieldset", { class: "ship-fire", dataset: { ship } }, h("legend", {}, `${ship}${where}`), volleys, weapons, targetRow));
  }
  box.append(chosen);
  const hint =
    "Press a target under “Every weapon at” to fire everything that reaches it, or pick a weapon, then a target " +
    "(a button, or a ringed counter on the map). Repeat a shot to fire it again.";
  panel.form.append(box, h("p", { class: "hint" }, hint));
  showChosen();
  // With a single weapon there is nothing to choose: show its targets at once.
  const only = Object.entries(fire);
  if (only.length === 1 && new Set(only[0][1].map((o) => o.weapon)).size === 1) {
    box.querySelector("button.weapon").click();
  }
}
