// AV:T firing arc diagrams as the SSD draws them: the 50-window sphere fixed to the ship, seen from
// inside ("a goldfish looking out of a goldfish bowl", A5.163), as a gridded oval. The Top is the
// top row, the Bottom the bottom row, and the middle row is a clock round the ship: 12 at the Nose
// in the middle, 9 (Port) to the left, 3 (Starboard) to the right and 6 (Aft) split between the two
// edges (A5.1631). Rows narrow toward the poles, which gives the oval.
//
// Which windows a mount covers and which window a target maps to come from the scene's
// `diagrams` (systems/avt/diagrams.py); this module only places the windows.

import { s } from "./avid.js";

const f = (x) => Math.round(x * 10) / 10;
const HOUR = 14; // width of one hour of the middle row
const ROW = 15; // height of a row
const WIDTH = [1, 0.87, 0.5, 0.25]; // a row's width against the middle row's, by |level|

/** Rectangles (x, width) a window covers: the aft windows are split between the two edges. */
function spans(w) {
  const ring = Math.abs(w.level);
  const scale = WIDTH[ring] * HOUR;
  if (ring === 3) return [[-6 * scale, 12 * scale]];
  const c = ((w.ray + 6) % 12) - 6; // Nose 0, Port -3, Starboard +3, Aft -6
  const half = ring === 2 ? 1 : 0.5;
  const out = [];
  for (const centre of c === -6 ? [-6, 6] : [c]) {
    const x0 = Math.max(-6, centre - half);
    const x1 = Math.min(6, centre + half);
    out.push([x0 * scale, (x1 - x0) * scale]);
  }
  return out;
}

/** Where to write in a window: the middle of its (larger, or left) part. */
function middle(w) {
  const [x, width] = spans(w)[0];
  return [x + width / 2, -w.level * ROW];
}

// The orientation symbols' fixed places on the diagram (A5.163): the middle row and the poles.
const SYMBOLS = { 12: "▲", 9: "P", 3: "S", 6: "◗", top: "★", bottom: "⚓" };

/**
 * The firing arc diagram of one mount (an entry of a ship's `mounts`), as an SVG with class
 * `arc-diagram` and `data-mount`. `target` (an entry of the ship's `targets`, or null) is marked in
 * the window(s) it maps to; the diagram says whether this mount reaches it.
 */
export function drawArcDiagram(arcWindows, mount, target) {
  const inArc = new Set(mount.arc);
  const marked = new Set(target && target.arc ? target.arc : []);
  const reaches = Boolean(target && (target.mounts || []).includes(mount.mount));
  const cells = arcWindows.map((w) => {
    const classes = ["arc-window"];
    if (inArc.has(w.name)) classes.push("in-arc");
    if (marked.has(w.name)) classes.push("marked");
    const [mx, my] = middle(w);
    const symbol = SYMBOLS[w.name];
    return s(
      "g",
      { class: classes.join(" "), dataset: { window: w.name, level: w.level, ray: w.ray } },
      s("title", {}, `${w.name}${inArc.has(w.name) ? ": in mount " + mount.mount + "'s arc" : ""}`),
      spans(w).map(([x, width]) =>
        s("rect", { class: "arc-cell", x: f(x), y: f(-w.level * ROW - ROW / 2), width: f(width), height: ROW }),
      ),
      symbol && !marked.has(w.name)
        ? s("text", { class: "arc-symbol", x: f(mx), y: f(my), "text-anchor": "middle", "dominant-baseline": "central" }, symbol)
        : null,
      marked.has(w.name)
        ? s(
            "g",
            { class: `arc-target${reaches ? " reaches" : ""}`, dataset: { target: target.id } },
            s("circle", { cx: f(mx), cy: f(my), r: 6.5 }),
            s("text", { x: f(mx), y: f(my), "text-anchor": "middle", "dominant-baseline": "central" }, target.range),
          )
        : null,
    );
  });
  const lasers = mount.lasers.join(" ");
  const label = `Mount ${mount.mount} (${lasers}), ${mount.weapon}, range ${mount.range}`;
  const verdict = target
    ? target.window
      ? `${target.id} in arc window ${target.arc.join("/")}: ${reaches ? "this mount reaches it" : "out of this mount's arc or range"}`
      : `${target.id} is in this ship's own space`
    : "no target chosen";
  const width = 12 * HOUR;
  return s(
    "svg",
    {
      class: `arc-diagram${reaches ? " reaches" : ""}`,
      viewBox: `${-width / 2 - 4} ${-3.5 * ROW - 14} ${width + 8} ${7 * ROW + 30}`,
      role: "img",
      "aria-label": `${label}. ${verdict}`,
      dataset: { mount: mount.mount, target: target ? target.id : "", reaches: String(reaches) },
    },
    s("title", {}, `${label}. ${verdict}`),
    s("text", { class: "arc-title", x: -width / 2, y: -3.5 * ROW - 4 }, `Mount ${mount.mount}`, s("tspan", { class: "arc-lasers" }, ` ${lasers}`)),
    cells,
    s("text", { class: "arc-edge", x: -width / 2, y: 3.5 * ROW + 11 }, "Port ←"),
    s("text", { class: "arc-edge", x: width / 2, y: 3.5 * ROW + 11, "text-anchor": "end" }, "→ Stbd"),
  );
}
