// Standing orders (docs/web.md, "Turns that flow"): how far the game may go on for a side before it
// asks again. The server keeps them and answers the prompts they cover with ordinary orders; this
// block shows why the game stopped here, and sets the flow, the standing fire and the skips.

import { h } from "../dom.js";

const ANY = "*";

/** The enemy ships a standing fire order may name, as [id, name]. */
function enemies(scene, side) {
  return (scene.counters || [])
    .filter((c) => c.side && c.side !== side && c.status === "active")
    .map((c) => [c.id, c.label || c.id]);
}

/**
 * The flow block under a side's form: what is new since the last prompt, "stop only when something
 * new can be decided", the standing fire (a target and a least chance), and the skip buttons; null
 * where the turn is not cut into segments.
 */
export function flowBlock(shell, panel) {
  const scene = shell.scene;
  const side = panel.side;
  const standing = (scene.standing || {})[side] || { flow: "ask", skip_through_turn: 0, fire_at: "", min_chance: 0 };
  const news = (scene.news || {})[side] || [];
  // Only a turn cut into segments (AV:T) has prompts with nothing new to decide; elsewhere every
  // prompt the game puts to a side is a decision, so the box would offer nothing.
  if (!scene.prompt || !scene.prompt.segment) return null;

  const flow = h("input", { type: "checkbox", class: "flow-decision", checked: standing.flow === "decision" });
  const target = h(
    "select",
    { class: "standing-target", "aria-label": "Standing fire at" },
    h("option", { value: "" }, "no standing fire"),
    h("option", { value: ANY }, "any enemy in reach"),
    ...enemies(scene, side).map(([id, name]) => h("option", { value: id }, name)),
  );
  target.value = standing.fire_at || "";
  const chance = h("input", {
    type: "number",
    class: "standing-chance",
    min: "0",
    max: "100",
    step: "5",
    value: String(standing.min_chance || 0),
    "aria-label": "Least chance of a standing shot, in percent",
  });

  const read = (extra = {}) => ({
    flow: flow.checked ? "decision" : "ask",
    skip_through_turn: standing.skip_through_turn || 0,
    fire_at: target.value,
    min_chance: Math.max(0, Math.min(100, Number(chance.value) || 0)),
    ...extra,
  });

  const send = async (body) => {
    panel.say("", body.now ? "Skipping…" : "Saving standing orders…");
    try {
      const res = await shell.api.setStanding(shell.game, side, body);
      panel.say("ok", body.now ? "Skipped." : "Standing orders kept.");
      if (res && res.scene) shell.onScene(res.scene);
    } catch (err) {
      panel.say("bad", err.message);
    }
  };

  for (const input of [flow, target, chance]) input.addEventListener("change", () => send(read()));

  const nodes = [];
  if (news.length) {
    nodes.push(h("div", { class: "news" }, h("strong", {}, "New this time: "), news.join("; ")));
  }
  nodes.push(
    h("label", { class: "flow-toggle" }, flow, " Go on by itself until something new can be decided"),
    h("div", { class: "standing-fire" }, h("label", {}, "Standing fire: ", target), h("label", {}, " at least ", chance, " %")),
  );
  const turn = scene.prompt.turn;
  nodes.push(
    h(
      "div",
      { class: "skips" },
      h("button", { type: "button", class: "skip-decision", onclick: () => send(read({ flow: "decision", now: true })) }, "Skip to the next decision"),
      h("button", { type: "button", class: "skip-turn", onclick: () => send(read({ skip_through_turn: turn, now: true })) }, "Skip to the end of the turn"),
    ),
  );
  return h("fieldset", { class: "flow" }, h("legend", {}, "Standing orders"), ...nodes);
}
