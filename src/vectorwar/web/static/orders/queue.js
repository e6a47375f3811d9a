// Which shots may still be queued, and the one-click volley at a target. A ship's shots so far are
// its pieces (`chosen`); each of its `fire_options` says what a piece spends: `uses` of its
// weapon's `limit`, its `unit` (a laser that fires once), its `cost` of the ship's `budget` (AV:T
// battery power). A queue any of these refuses is not made; the order check judges the rest.

import { queueProblem } from "./odds.js";

/** The option a chosen piece is (pieces compare as the rules read them: case and spacing aside). */
function optionOf(options, piece) {
  const want = String(piece).trim().toLowerCase();
  return options.find((o) => o.piece.toLowerCase() === want) || null;
}

/** Why `option` may not be added to `chosen` (a ship's pieces so far), in words with its rule; "" if it may. */
export function shotProblem(options, chosen, option) {
  const spent = chosen.map((p) => optionOf(options, p)).filter(Boolean);
  if (option.unit && spent.some((o) => o.unit === option.unit)) {
    return `${option.unit} is already firing: it fires once (${option.limit_rule || "the rules"})`;
  }
  if (option.budget) {
    const used = spent.reduce((sum, o) => sum + (o.cost || 0), 0);
    if (used + (option.cost || 0) > option.budget) {
      return `${option.piece} needs ${option.cost}, and ${option.budget - used} of ${option.budget} is left (${option.budget_rule})`;
    }
  }
  const counted = spent.map((o) => o.piece);
  return queueProblem(options, counted, option);
}

/** Whether anything `weapon` fires could still be queued after `chosen`. */
export function weaponOpen(options, chosen, weapon) {
  return options.some((o) => o.weapon === weapon && !shotProblem(options, chosen, o));
}

/**
 * The pieces "every weapon that reaches this target" adds to `chosen`: for each weapon with a shot
 * at `target` and none at it yet, its default shots (`volley` times each piece marked so; a scene
 * without `volley` gives each weapon's smallest shot once), each only while the limits allow it.
 */
export function volleyAt(options, chosen, target) {
  const added = [];
  const now = () => [...chosen, ...added];
  const weapons = [...new Set(options.filter((o) => o.target === target).map((o) => o.weapon))];
  for (const weapon of weapons) {
    const mine = options.filter((o) => o.weapon === weapon && o.target === target);
    // Pressed again, a weapon already firing at this target adds nothing: the button is idempotent.
    // (A weapon of several units, AV:T's mount of lasers, adds the lasers not yet firing.)
    const firing = now().some((p) => mine.includes(optionOf(options, p)));
    if (firing && !mine.every((o) => o.unit)) continue;
    let picks = mine.filter((o) => (o.volley ?? 0) > 0);
    if (!mine.some((o) => "volley" in o)) {
      const least = Math.min(...mine.map((o) => o.uses || 1));
      picks = [mine.find((o) => (o.uses || 1) === least)];
    }
    for (const o of picks) {
      for (let i = 0; i < (o.volley ?? 1); i += 1) {
        if (shotProblem(options, now(), o)) break;
        added.push(o.piece);
      }
    }
  }
  return added;
}
