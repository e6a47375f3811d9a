// A side's order already sent, waiting for the others: its text (covered at a secret hot-seat
// prompt until someone asks to see it) and, at a simultaneous prompt, "Take it back".

import { h, sideChip } from "../dom.js";

/**
 * The block for `side`'s sent order `text`. `scene` decides whether it is covered; `takeBack()`
 * withdraws it (offered only while the prompt is simultaneous).
 */
export function pendingBlock(scene, side, text, colours, takeBack) {
  const prompt = scene.prompt;
  // Hot-seat (one viewer, several sides) at a secret prompt: the next side's player is at this
  // screen, so the plot stays covered, and out of the page, until someone asks to see it.
  const secret = Boolean(prompt && prompt.simultaneous && (scene.viewer || []).length > 1);
  const body = secret ? coveredPlot(text) : h("p", { class: "pending-text" }, h("code", {}, text));
  const block = h(
    "section",
    { class: "pending", dataset: { side } },
    h("h3", {}, sideChip(side, colours[side]), " order sent"),
    body,
  );
  if (prompt && prompt.simultaneous) {
    block.append(h("button", { type: "button", class: "secondary", onclick: takeBack }, "Take it back"));
  }
  block.append(h("p", { class: "hint waiting", id: "waiting-note" }, ""));
  return block;
}

/** "sent (hidden until all are in)" with a Show button; the text enters the page only on Show. */
function coveredPlot(text) {
  const note = h("span", { class: "pending-hidden-note" }, "sent (hidden until all are in)");
  let plot = null;
  const toggle = h(
    "button",
    {
      type: "button",
      class: "secondary show-plot",
      "aria-expanded": "false",
      onclick: () => {
        if (plot) {
          plot.replaceWith(note);
          plot = null;
        } else {
          plot = h("code", {}, text);
          note.replaceWith(plot);
        }
        toggle.setAttribute("aria-expanded", String(Boolean(plot)));
        toggle.textContent = plot ? "Hide" : "Show";
      },
    },
    "Show",
  );
  return h("p", { class: "pending-text pending-hidden" }, note, toggle);
}
