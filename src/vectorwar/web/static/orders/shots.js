// Choosing shots from `fire_options`, shared by the fire picker and the AV:T composer: a ship's
// weapon buttons (each with its count of legal targets); pressing one shades its arc, rings its
// targets on the map and lists one button per legal shot; one "every weapon at" button per target;
// and the chips of chosen pieces. What the rules would refuse now is greyed out (queue.js).

import { h } from "../dom.js";
import { oddsDetail, oddsShort, oddsTitle } from "./odds.js";
import { shotProblem, volleyAt, weaponOpen } from "./queue.js";

/** Keep `refresh()` among what the panel redraws whenever its shots change (`panel.refreshQueue`). */
function watchQueue(panel, refresh) {
  panel.queueViews = [...(panel.queueViews || []), refresh];
  panel.refreshQueue = () => {
    for (const view of panel.queueViews) view();
  };
}

function chosenOf(panel, ship) {
  return panel.shotsOf ? panel.shotsOf(ship) : [];
}

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
  // A weapon with nothing left to fire (its uses spent, its lasers all firing) is greyed out, and so
  // are the target buttons the rules would refuse now.
  watchQueue(panel, () => {
    const chosen = chosenOf(panel, ship);
    for (const b of row.querySelectorAll("button.weapon")) {
      const open = weaponOpen(options, chosen, b.dataset.weapon);
      b.disabled = !open;
      b.classList.toggle("spent", !open);
    }
    refreshQueue(panel, ship, options, targetRow);
  });
  return row;
}

/**
 * A ship's "every weapon that reaches this target" buttons, one per target: a press queues the
 * default shots of every weapon that reaches it (queue.js `volleyAt`); pressed again it adds nothing.
 */
export function volleyRow(shell, panel, ship, options) {
  const row = h("div", { class: "fire-row volleys" }, h("span", { class: "fire-row-label" }, "Every weapon at"));
  const targets = [...new Set(options.map((o) => o.target))];
  for (const target of targets) {
    const weapons = [...new Set(options.filter((o) => o.target === target).map((o) => o.weapon))];
    row.append(
      h(
        "button",
        {
          type: "button",
          class: "helper target-all",
          dataset: { ship, target, weapons: weapons.join(",") },
          onclick: () => queueVolley(panel, ship, options, target),
        },
        target,
        h("span", { class: "volley-count" }, ""),
      ),
    );
  }
  watchQueue(panel, () => {
    const chosen = chosenOf(panel, ship);
    for (const b of row.querySelectorAll("button.target-all")) {
      const adds = volleyAt(options, chosen, b.dataset.target);
      b.disabled = !adds.length;
      b.querySelector(".volley-count").textContent = adds.length ? ` +${adds.length}` : " ✓";
      b.title = adds.length
        ? `every weapon that reaches ${b.dataset.target}: ${adds.join(", ")}`
        : `every weapon that reaches ${b.dataset.target} is already firing, or has nothing left to fire`;
      b.setAttribute("aria-label", `Fire every weapon that reaches ${b.dataset.target} (${adds.length} shots)`);
    }
  });
  return row;
}

/** Queue every weapon that reaches `target` (nothing when all already fire at it); say what was added. */
function queueVolley(panel, ship, options, target) {
  const adds = volleyAt(options, chosenOf(panel, ship), target);
  if (!adds.length) {
    if (panel.say) panel.say("bad", `Not queued: every weapon of ${ship} that reaches ${target} is already firing or spent`);
    return false;
  }
  if (panel.addShots) panel.addShots(ship, adds);
  else for (const piece of adds) panel.addShot(ship, piece);
  return true;
}

/** Add `option` unless the rules would refuse it after the ship's shots so far; say why not. */
function queue(panel, ship, options, option) {
  const why = shotProblem(options, chosenOf(panel, ship), option);
  if (why) {
    if (panel.say) panel.say("bad", `Not queued: ${why}`);
    return false;
  }
  panel.addShot(ship, option.piece);
  return true;
}

/** Grey out the target buttons in `row` that the rules no longer allow after the ship's shots so far. */
export function refreshQueue(panel, ship, options, row) {
  if (!row) return;
  const chosen = chosenOf(panel, ship);
  for (const b of row.querySelectorAll("button.target")) {
    const option = options.find((o) => o.piece === b.dataset.piece);
    const why = option ? shotProblem(options, chosen, option) : "";
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
  // A ringed counter clicked on the map now becomes one of these shots (OrdersPanel.pickTarget):
  // the first at that target the rules still allow (a mount's next laser not yet firing).
  const aim = (target) => {
    const at = shots.filter((o) => o.target === target);
    const shot = at.find((o) => !shotProblem(options, chosenOf(panel, ship), o)) || at[0];
    return shot ? queue(panel, ship, options, shot) : false;
  };
  shell.fireArmed = { panel, ship, shots, aim, queue: (o) => queue(panel, ship, options, o) };
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
  if (panel.refreshQueue) panel.refreshQueue();
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
