// Weapon buttons guessed from the scene's arcs, only for a server whose scenes carry no
// `fire_options`: pressing one shades its arc and writes the weapon into the ship's entry in
// the notation the prompt's help shows; a counter clicked on the map then appends ">TARGET".
// Nothing here judges legality: the live check shows the rule's words for anything wrong.

import { h } from "../dom.js";
import { entries, norm, weaponInsertion } from "./text.js";

/** Add a row of weapon buttons per ship of this side to `helpers`. */
export function addArcWeapons(shell, panel, help, helpers) {
  const scene = shell.scene;
  const side = panel.side;
  const weaponText = weaponInsertion(help);
  // Weapons only help orders that name targets ("SHIP F>TARGET"), not e.g. an initiative choice.
  const arcs = !help || help.includes(">") ? scene.arcs || {} : {};
  for (const [ship, weapons] of Object.entries(arcs)) {
    const owner = shell.ownerOf(ship);
    if (owner !== null && owner !== side) continue;
    const counter = shell.counter(ship);
    if (counter && counter.status && counter.status !== "active") continue;
    const group = h("div", { class: "weapon-group", dataset: { ship } }, h("span", { class: "weapon-ship" }, ship));
    for (const [weapon, hexes] of Object.entries(weapons)) {
      const targets = (scene.counters || []).filter((c) => c.side !== side && hexes.includes(c.hex) && c.status === "active");
      group.append(
        h(
          "button",
          {
            type: "button",
            class: "helper weapon",
            "aria-pressed": "false",
            title: targets.length ? `in arc: ${targets.map((t) => t.id).join(", ")}` : "no target in arc",
            dataset: { ship, weapon, targets: targets.map((t) => t.id).join(",") },
            onclick: (ev) => armWeapon(shell, panel, ship, weaponText(weapon), hexes, ev.currentTarget),
          },
          weapon,
          targets.length ? h("span", { class: "in-arc" }, ` ${targets.length}`) : null,
        ),
      );
    }
    helpers.append(group);
  }
}

function armWeapon(shell, panel, ship, piece, hexes, button) {
  for (const b of shell.container.querySelectorAll("button.weapon")) b.setAttribute("aria-pressed", "false");
  button.setAttribute("aria-pressed", "true");
  shell.map.shade("arc", hexes, "arc");
  shell.armed = { panel, ship };
  const input = panel.input;
  const parts = entries(input.value);
  const at = parts.findIndex((p) => norm(p.split(" ")[0]) === norm(ship));
  if (at >= 0) parts[at] = `${parts[at]} ${piece}`;
  else parts.push(`${ship} ${piece}`);
  input.value = parts.filter((p) => norm(p) !== "hold").join("; ");
  panel.edited();
  input.focus();
}

/** A counter clicked while a guessed weapon is armed: ">TARGET" after that ship's entry. */
export function aimArmed(shell, shipId) {
  const armed = shell.armed;
  if (!armed || !shell.container.contains(armed.panel.form)) return false;
  const input = armed.panel.input;
  const parts = entries(input.value);
  const at = parts.findIndex((p) => norm(p.split(" ")[0]) === norm(armed.ship));
  if (at < 0) return false;
  parts[at] = `${parts[at]}>${shipId}`;
  input.value = parts.join("; ");
  armed.panel.edited();
  input.focus();
  return true;
}
