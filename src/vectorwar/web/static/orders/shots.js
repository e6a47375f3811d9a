// Choosing shots from `fire_options`, shared by the fire picker and the AV:T composer: a ship's
// weapon buttons (each with its count of legal targets); pressing one shades its arc, rings its
// targets on the map and lists one button per legal shot; and the chips of chosen pieces.

import { h } from "../dom.js";

/**
 * A ship's weapon buttons: each shows how many targets it has and, pressed, their buttons in
 * `targetRow`. A shot chosen (a button, or a ringed counter) goes to `panel.addShot(ship, piece)`.
 */
export function weaponRow(shell, panel, ship, options, targetRow) {
  const row = h("div", { class: "fire-row weapons" }, h("span", { class: "fire-row-label" }, "Weapon"));
  for (const weapon of [...new Set(options.map((o) => o.weapon))]) {
    const targets = [...new Set(options.filter((o) => o.weapon === weapon).map((o) => o.target))];
    row.append(
      h(
        "button",
        {
          type: "button",
          class: "helper weapon",
          "aria-pressed": "false",
          title: `can fire at ${targets.join(", ")}`,
          dataset: { ship, weapon, targets: targets.join(",") },
          onclick: (ev) => armFire(shell, panel, ship, weapon, options, targetRow, ev.currentTarget),
        },
        weapon,
        h("span", { class: "in-arc" }, ` ${targets.length}`),
      ),
    );
  }
  return row;
}

function armFire(shell, panel, ship, weapon, options, targetRow, button) {
  for (const b of shell.container.querySelectorAll("button.weapon")) b.setAttribute("aria-pressed", "false");
  for (const row of shell.container.querySelectorAll(".fire-row.targets")) row.hidden = true;
  button.setAttribute("aria-pressed", "true");
  const shots = options.filter((o) => o.weapon === weapon);
  const arcs = (shell.scene.arcs || {})[ship] || {};
  shell.map.shade("arc", arcs[weapon] || [], "arc");
  shell.map.mark(shots.map((o) => o.target));
  // A ringed counter clicked on the map now becomes one of these shots (OrdersPanel.pickTarget).
  shell.fireArmed = { panel, ship, shots };
  const perTarget = {};
  for (const o of shots) perTarget[o.target] = (perTarget[o.target] || 0) + 1;
  targetRow.replaceChildren(
    h("span", { class: "fire-row-label" }, "Target"),
    ...shots.map((o) =>
      h(
        "button",
        {
          type: "button",
          class: "helper target",
          title: `add ${o.piece}`,
          dataset: { ship, weapon, target: o.target, piece: o.piece },
          onclick: () => panel.addShot(ship, o.piece),
        },
        // A target offered more than once (a gun count) is told apart by its piece.
        perTarget[o.target] > 1 ? `${o.target} · ${o.piece.replace(/>.*$/, "")}` : o.target,
      ),
    ),
  );
  targetRow.hidden = false;
}

/** A chosen piece as a button that removes it (`remove()`), reading `label`. */
export function pieceChip(ship, piece, label, remove) {
  return h(
    "button",
    {
      type: "button",
      class: "piece",
      title: `remove ${piece} from ${ship}'s shots`,
      "aria-label": `Remove ${ship} ${piece}`,
      dataset: { ship, piece },
      onclick: remove,
    },
    label,
    h("span", { class: "remove", "aria-hidden": "true" }, "×"),
  );
}
