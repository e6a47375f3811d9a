// Plot warnings from the scene: each move option may carry `warnings` ({reason, rule, mark}) that the
// rule system worked out (what the board's edge does to it, that it ends on a hazard). The list marks
// such plots with the warning's few words, the whole reason in the title, and the map draws their ghost
// in the warning colour; nothing here judges a plot itself.

import { h } from "../dom.js";

export const WARNING_COLOUR = "#d9822b";

export function warned(option) {
  return Boolean(option && option.warnings && option.warnings.length);
}

/** The warning mark after a plot in the list: "⚠ leaves the board at 1,6", the rest in its title. */
export function warningMark(option) {
  if (!warned(option)) return null;
  const first = option.warnings[0];
  const short = first.mark || first.reason.split(":")[0];
  const title = option.warnings.map((w) => `${w.reason} (${w.rule})`).join("\n");
  return h("span", { class: "plot-warning", title, "aria-label": `warning: ${title}` }, ` ⚠ ${short}`);
}

/** The ghost's colour: the warning colour for a warned plot, else the side's. */
export function ghostColour(option, colour) {
  return warned(option) ? WARNING_COLOUR : colour;
}
