// What the rules give a shot before it is fired, as the scene's `fire_options` carry it: the
// number needed and the chance, every modifier by name with its rule, the damage, and AV:T's range
// bracket and table column. Where the chance still turns on the target (a VV5 missile: the target's
// burn before the roll), the summary gives both ends in words and `percent` the range ("8%–42%").
// Nothing here works odds out: the server's rule system does, with the
// same function that resolves the shot, so what is shown is what the dice will be compared with.

import { h } from "../dom.js";

/** "+1" / "-2" for a modifier's value. */
function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

/** One line for a button: the summary the server wrote ("needs 4 or less on d6: 67%"). */
export function oddsShort(odds) {
  return odds ? odds.summary : "";
}

/** Title text: the summary, then every modifier and note on its own line. */
export function oddsTitle(odds) {
  if (!odds) return "";
  const lines = [odds.summary];
  for (const [i, m] of odds.modifiers.entries()) {
    const value = i === 0 && odds.need !== null ? `${m.value}` : signed(m.value);
    lines.push(`${m.name}: ${value}${m.rule ? ` (${m.rule})` : ""}`);
  }
  lines.push(`damage: ${odds.damage}`);
  for (const note of odds.notes) lines.push(note);
  return lines.join("\n");
}

/** The odds of one shot spelled out under the target buttons: summary, modifiers, damage. */
export function oddsDetail(option) {
  const odds = option.odds;
  if (!odds) return h("div", { class: "odds-detail" });
  const items = odds.modifiers.map((m, i) =>
    h(
      "li",
      { class: "odds-modifier" },
      h("span", { class: "odds-name" }, m.name),
      " ",
      h("b", {}, i === 0 && odds.need !== null ? `${m.value}` : signed(m.value)),
      m.rule ? h("span", { class: "odds-rule" }, ` ${m.rule}`) : null,
    ),
  );
  const table = odds.column ? h("p", { class: "odds-table" }, `range ${odds.range}: bracket ${odds.bracket}, column ${odds.column}`) : null;
  return h(
    "div",
    { class: "odds-detail", dataset: { piece: option.piece, ship: odds.ship } },
    h("p", { class: "odds-summary" }, h("b", {}, `${option.label} → ${option.target}`), `: ${odds.summary}`),
    table,
    h("ul", { class: "odds-modifiers" }, ...items),
    h("p", { class: "odds-damage" }, `Damage: ${odds.damage}`),
    ...odds.notes.map((n) => h("p", { class: "odds-note" }, n)),
  );
}

/**
 * How many uses of `option`'s weapon `chosen` (a ship's pieces so far) already spends, read from
 * the ship's options (each piece's `uses`); `option.limit` 0 means the rules set none we know.
 */
export function usesSoFar(options, chosen, weapon) {
  let used = 0;
  for (const piece of chosen) {
    const match = options.find((o) => o.piece === piece && o.weapon === weapon);
    if (match) used += match.uses || 1;
  }
  return used;
}

/** Why `option` may not be queued after `chosen`, in words with its rule, or "" if it may. */
export function queueProblem(options, chosen, option) {
  if (!option.limit) return "";
  const used = usesSoFar(options, chosen, option.weapon);
  if (used + (option.uses || 1) <= option.limit) return "";
  return `${option.label} has ${option.limit - used} of ${option.limit} use(s) left (${option.limit_rule})`;
}
