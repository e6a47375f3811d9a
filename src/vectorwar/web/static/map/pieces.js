// The pieces on the map: counters with facing arrows, VV5 vector markers and their lines, and in
// 3-D each counter's shadow and stalk. Pieces stay upright when the map tilts, so each is placed
// by the projection rather than drawn on the plane, and grows when zoomed far out.

import { pieceScale } from "./fit.js";
import { SIZE, TILT, el, facingAngle, hexPoints } from "./geometry.js";

// Shadows are a bit wider than a counter so they stay visible around one at altitude 0.
const SHADOW_R = SIZE * 0.78;

export class Pieces {
  /** `layers` holds the counters, markers and shadows groups; `colour(side)` a side's colour. */
  constructor(svg, layers, projection, colour) {
    this.svg = svg;
    this.layers = layers;
    this.projection = projection;
    this.colour = colour;
    this.counters = [];
    // The counters a chosen weapon may fire at, ringed until changed (kept across redraws).
    this.marked = new Set();
    this.scale = 1;
    this.scaleDone = false;
  }

  /** Ring the counters a chosen weapon may fire at (kept across redraws until changed). */
  mark(ids) {
    this.marked = new Set(ids || []);
    for (const g of this.layers.counters.querySelectorAll(".counter")) {
      g.classList.toggle("targetable", this.marked.has(g.dataset.id));
    }
  }

  /**
   * Zoomed out over a big map, hexes get too small to read a counter; pieces then grow (up to
   * twice a hex) so labels and facing arrows stay legible at any zoom. `pxPerUnit` is the zoom.
   */
  rescale(pxPerUnit) {
    const scale = pieceScale(pxPerUnit);
    if (Math.abs(scale - this.scale) < 0.01 && this.scaleDone) return;
    this.scale = scale;
    this.scaleDone = true;
    for (const g of this.svg.querySelectorAll(".counter, .vector-marker, .ghost-counter")) {
      g.setAttribute("transform", `translate(${g.dataset.x},${g.dataset.y}) scale(${scale.toFixed(3)})`);
    }
  }

  /** The attributes that put a piece at an SVG point at the current piece scale. */
  placed(x, y) {
    const scale = this.scale.toFixed(3);
    return { "data-x": x.toFixed(1), "data-y": y.toFixed(1), transform: `translate(${x.toFixed(1)},${y.toFixed(1)}) scale(${scale})` };
  }

  draw(counters) {
    this.counters = counters;
    const project = (hex, altitude) => this.projection.project(hex, altitude);
    const threeD = this.projection.threeD;
    const layer = this.layers.counters;
    const markers = this.layers.markers;
    layer.replaceChildren();
    markers.replaceChildren();
    this.layers.shadows.replaceChildren();
    // Sort so that live ships draw above wrecks sharing a hex.
    const byStatus = (a, b) => (a.status === "active") - (b.status === "active");
    let sorted = [...counters].sort(byStatus);
    if (threeD) {
      // Painter's order: the far side of the plane first, so nearer counters and stalks cover it.
      const depth = (c) => project(c.hex, 0).y;
      sorted = sorted.sort((a, b) => depth(a) - depth(b) || (a.altitude || 0) - (b.altitude || 0) || byStatus(a, b));
    }
    const perStack = {};
    for (const c of sorted) {
      // Counters at one hex but different altitudes do not overlap in 3-D, so only a true stack fans out.
      const stack = threeD ? `${c.hex}@${c.altitude || 0}` : c.hex;
      const n = (perStack[stack] = (perStack[stack] || 0) + 1) - 1;
      // Stacked counters fan out a little so every one stays clickable.
      const fan = (p) => ({ x: p.x + n * 5, y: p.y - n * 5 });
      const { x: ox, y: oy } = fan(project(c.hex, c.altitude));
      const { x: bx, y: by } = fan(project(c.hex, 0));
      const colour = this.colour(c.side);
      if (threeD) this.stand(c, { x: bx, y: by }, { x: ox, y: oy }, colour);
      for (const m of c.markers || []) this.vectorMarker(c, m, { x: bx, y: by }, colour);
      const g = el(
        "g",
        {
          class: `counter status-${c.status || "active"}${this.marked.has(c.id) ? " targetable" : ""}`,
          "data-id": c.id,
          "data-hex": c.hex,
          "data-side": c.side,
          "data-facing": c.facing || "",
          "data-altitude": c.altitude || 0,
          ...this.placed(ox, oy),
        },
        layer,
      );
      this.counterShape(g, c, colour);
    }
  }

  /** A ship's vector marker at hex `m`, and its line from the ship's `base` on the plane. */
  vectorMarker(c, m, base, colour) {
    // Vector markers have no altitude: they and their lines lie on the plane.
    const markers = this.layers.markers;
    const mp = this.projection.project(m, 0);
    el("line", { x1: base.x, y1: base.y, x2: mp.x, y2: mp.y, class: "vector-line", stroke: colour }, markers);
    const mk = el("g", { class: "vector-marker", "data-ship": c.id, "data-hex": m, ...this.placed(mp.x, mp.y) }, markers);
    el("polygon", { points: hexPoints("0,0", SIZE * 0.55), class: "marker-shape", stroke: colour }, mk);
    const lbl = el("text", { x: 0, y: 4, class: "marker-label", fill: colour }, mk);
    lbl.textContent = c.label || c.id;
    const t = el("title", {}, mk);
    t.textContent = `${c.id}'s vector marker at ${m}`;
  }

  /**
   * What lets a player read a counter's hex and its altitude at once in 3-D: a shadow on the plane
   * at its hex, and a stalk from there up (or down, dashed, below the plane) to the counter, whose
   * altitude tag sits where the stalk meets it. The stalk goes into the counters layer just before
   * its counter, so it keeps the painter's order.
   */
  stand(c, base, top, colour, { ghost = false, shadowLayer = this.layers.shadows, stalkLayer = this.layers.counters } = {}) {
    const id = ghost ? null : c.id;
    const shadow = { cx: base.x, cy: base.y, rx: SHADOW_R, ry: SHADOW_R * TILT };
    el("ellipse", { ...shadow, class: ghost ? "shadow ghost-shadow" : "shadow", "data-id": id, fill: colour }, shadowLayer);
    const altitude = c.altitude || 0;
    if (!altitude) return;
    el(
      "line",
      {
        x1: base.x,
        y1: base.y,
        x2: top.x,
        y2: top.y,
        class: `stalk${altitude < 0 ? " below" : ""}${ghost ? " ghost-stalk" : ""}`,
        "data-id": id,
        "data-altitude": altitude,
        stroke: colour,
      },
      stalkLayer,
    );
  }

  counterShape(g, c, colour, ghost = false) {
    const s = SIZE * 0.72;
    el("rect", { x: -s, y: -s * 0.82, width: 2 * s, height: 1.64 * s, rx: 4, class: "counter-body", fill: colour }, g);
    const angle = facingAngle(c.facing);
    if (angle !== null) {
      el(
        "polygon",
        { points: `${s * 1.55},0 ${s * 0.7},${-s * 0.34} ${s * 0.88},0 ${s * 0.7},${s * 0.34}`, class: "facing", transform: `rotate(${angle})` },
        g,
      );
    }
    const label = el("text", { x: 0, y: 4, class: "counter-label" }, g);
    label.textContent = c.label || c.id;
    if (c.altitude && this.projection.threeD) {
      // On the stalk where it leaves the counter: part of the piece, so it scales and moves with it.
      const up = c.altitude > 0;
      const tag = el("text", { x: 6, y: up ? s * 0.82 + 11 : -s * 0.82 - 4, class: "stalk-label" }, g);
      tag.textContent = up ? `+${c.altitude}` : `${c.altitude}`;
    } else if (c.altitude) {
      const alt = el("text", { x: s - 2, y: s * 0.78, class: "counter-alt" }, g);
      alt.textContent = c.altitude > 0 ? `+${c.altitude}` : `${c.altitude}`;
    }
    if (!ghost && c.status && c.status !== "active") {
      el("line", { x1: -s, y1: -s * 0.8, x2: s, y2: s * 0.8, class: "wreck" }, g);
      el("line", { x1: -s, y1: s * 0.8, x2: s, y2: -s * 0.8, class: "wreck" }, g);
    }
    if (!ghost) {
      const title = el("title", {}, g);
      title.textContent = `${c.id} (${c.side}) at ${c.hex}${c.altitude ? `, altitude ${c.altitude}` : ""}${c.facing ? `, facing ${c.facing}` : ""}${
        c.velocity ? `, velocity ${c.velocity}` : ""
      }${c.status && c.status !== "active" ? `, ${c.status}` : ""}`;
    }
  }
}
