// The Log tab: the game's events in words, grouped by turn, kept scrolled to the newest.

import { h } from "./dom.js";

/** `practice`: the game's creator fixed the seed (scene.practice), which the first line says. */
export function renderLog(container, events, practice = false) {
  const list = events || [];
  const items = [];
  if (practice) {
    items.push(h("li", { class: "log-practice" }, "Practice game: its creator chose the dice seed, so can foresee every roll."));
  }
  for (const e of list) {
    // Kinds arrive as event class names ("TurnBegan") or tags ("turn-began"); compare letters only.
    const kind = String(e.kind || "").toLowerCase().replace(/[^a-z]/g, "");
    if (kind === "turnbegan") {
      items.push(h("li", { class: "log-turn", dataset: { turn: e.turn, kind: e.kind } }, e.text.replace(/^-+\s*|\s*-+$/g, "")));
    } else {
      items.push(h("li", { class: `log-${kind === "rolled" ? "roll" : "event"}`, dataset: { turn: e.turn, kind: e.kind } }, e.text));
    }
  }
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
  const grew = list.length !== Number(container.dataset.count || 0);
  container.replaceChildren(h("ol", { class: "log-list" }, ...items));
  container.dataset.count = String(list.length);
  if (grew || atBottom) container.scrollTop = container.scrollHeight;
}
