// The header line (turn and phase, whose orders are awaited, who is watching) and the result box.

import { fill, h, sideChip, sideColours } from "./dom.js";

/** The header line: system, scenario, turn and phase, and whose orders are awaited. */
export function renderStatus(container, scene, mode) {
  const colours = sideColours(scene);
  const p = scene.prompt;
  const parts = [];
  if (scene.result) {
    parts.push(h("span", { class: "phase over" }, "Game over"));
  } else if (p) {
    parts.push(h("span", { class: "phase", "data-clock": p.clock }, p.clock));
    const waiting = p.waiting_for || [];
    if (waiting.length) {
      parts.push(
        h("span", { class: "awaited" }, "awaiting ", ...waiting.map((s) => sideChip(s, colours[s]))),
      );
    }
    // Sides nobody holds yet wait for a player to join from the lobby's open games.
    const free = scene.free_sides || [];
    if (free.length) {
      parts.push(h("span", { class: "open-sides" }, "open: ", ...free.map((s) => sideChip(s, colours[s])), " (anyone may join from the lobby)"));
    }
  }
  const mine = scene.my_turn || [];
  if (mode === "live" && mine.length) {
    parts.push(h("span", { class: "your-turn", "data-my-turn": mine.join(",") }, "Your orders are needed"));
  }
  const viewer = scene.viewer || [];
  if (mode === "replay") {
    parts.push(h("span", { class: "viewer replaying" }, `replay: step ${scene.step}`));
    container.replaceChildren(...parts);
    return;
  }
  parts.push(
    h(
      "span",
      { class: "viewer" },
      viewer.length ? ["playing ", ...viewer.map((s) => sideChip(s, colours[s]))] : "spectating",
    ),
  );
  container.replaceChildren(...parts);
}

export function renderResult(container, result, colours) {
  if (!result) {
    container.hidden = true;
    container.replaceChildren();
    return;
  }
  container.hidden = false;
  const winners = result.winners || [];
  const headline = winners.length
    ? h("p", { class: "winners" }, ...winners.map((w) => sideChip(w, colours[w])), winners.length > 1 ? " win" : " wins")
    : h("p", { class: "winners" }, "A draw");
  const scores = Object.entries(result.scores || {});
  fill(
    container,
    h("h2", {}, "Result"),
    headline,
    result.reason ? h("p", { class: "reason" }, result.reason) : null,
    scores.length
      ? h(
          "table",
          { class: "scores" },
          h("tbody", {}, ...scores.map(([s, v]) => h("tr", {}, h("th", { scope: "row" }, sideChip(s, colours[s])), h("td", {}, `${v} ${result.score_label || "points"}`)))),
        )
      : null,
  );
}
