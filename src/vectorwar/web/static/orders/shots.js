// Choosing shots from `fire_options`, shared by the fire picker and the AV:T composer: a ship's
// weapon buttons (each with its count of legal targets); pressing one shades its arc, rings its
// targets on the map and lists one button per legal shot; and the chips of chosen pieces.

import { h } from "../dom.js";
import { oddsDetail, oddsShort, oddsTitle, queueProblem } from "./odds.js";

/**
 * A ship's weapon buttons: each shows how many targets it has and, pressed, their buttons in
 * `targetRow`. A shot chosen (a button, or a ringed counter) goes to `panel.addShot(ship, piece)`.
 */
export function weaponRow(shell, panel, ship, options, targetRow) {
  const row = h("div", { class: "fire-row weapons" }, h("span", { class: "fire-row-label" }, "Weapon"));
  for (const weapon of [...new Set(options.map((o) => o.weapon))]) {
    const mine = options.filter((o) => o.weapon === weapon);
    const targets = [...new Set(mine.map((o) => o.target))];
    // The rule system names its weapons in words ("missile launcher", "mount A: 3 MRLS").
    const label = mine[0].label || weapon;
    row.append(
      h(
        "button",
        {
          type: "button",
          class: "helper weapon",
          "aria-pressed": "false",
          title: `${weapon}: can fire at ${targets.join(", ")}`,
          dataset: { ship, weapon, targets: targets.join(",") },
          onclick: (ev) => armFire(shell, panel, ship, weapon, options, targetRow, ev.currentTarget),
        },
        label,
        h("span", { class: "in-arc", title: "targets in arc" }, ` ${targets.length}`),
      ),
    );
  }
  return row;
}

/** Add `option` unless the ship's shots so far already spend what its weapon allows; say why not. */
function queue(panel, ship, options, option) {
  const chosen = panel.shotsOf ? panel.shotsOf(ship) : [];
  const why = queueProblem(options, chosen, option);
  if (why) {
    if (panel.say) panel.say("bad", `Not queued: ${why}`);
    return false;
  }
  panel.addShot(ship, option.piece);
  return true;
}

/** Grey out the target buttons in `row` that the weapon's remaining uses no longer allow. */
export function refreshQueue(panel, ship, options, row) {
  if (!row) return;
  const chosen = panel.shotsOf ? panel.shotsOf(ship) : [];
  for (const b of row.querySelectorAll("button.target")) {
    const option = options.find((o) => o.piece === b.dataset.piece);
    const why = option ? queueProblem(options, chosen, option) : "";
    b.disabled = Boolean(why);
    b.title = why || (option ? oddsTitle(option.odds) : "");
  }
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
  shell.fireArmed = { panel, ship, shots, queue: (o) => queue(panel, ship, options, o) };
  const perTarget = {};
  for (const o of shots) perTarget[o.target] = (perTarget[o.target] || 0) + 1;
  const detail = h("div", { class: "odds-box", "aria-live": "polite" });
  const show = (o) => detail.replaceChildren(oddsDetail(o));
  targetRow.replaceChildren(
    h("span", { class: "fire-row-label" }, "Target"),
    ...shots.map((o) =>
      h(
        "button",
        {
          type: "button",
          class: "helper target",
          title: oddsTitle(o.odds) || `add ${o.piece}`,
          dataset: { ship, weapon, target: o.target, piece: o.piece },
          onclick: () => queue(panel, ship, options, o),
          onmouseenter: () => show(o),
          onfocus: () => show(o),
        },
        // A target offered more than once (a gun count) is told apart by its piece.
        perTarget[o.target] > 1 ? `${o.target} · ${o.piece.replace(/>.*$/, "")}` : o.target,
        o.odds ? h("span", { class: "odds" }, ` ${o.odds.percent}`) : null,
        o.odds ? h("span", { class: "odds-need" }, ` ${oddsShort(o.odds).replace(/:.*$/, "")}`) : null,
      ),
    ),
    detail,
  );
  if (shots.length) show(shots[0]);
  targetRow.hidden = false;
  panel.refreshQueue = () => refreshQueue(panel, ship, options, targetRow);
  panel.refreshQueue();
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
