// The range ruler: while it is on, a click on the map picks an end (a ship, or else a hex), the
// next the other end, and the map shows the distance in hexes between them; between two ships in
// play it adds the range as the rules measure it where that is more than hexes (AV:T: the RALT
// with altitude), in the scene's words (scene `ranges`), so no rule is worked out here. A ship
// end follows its ship as it moves.

import { el, hexDistance } from "./geometry.js";

export class Ruler {
  /** `layer` holds the drawing (pieces' layer: placed by `projection`); `readout` an HTML line. */
  constructor(layer, projection, readout) {
    this.layer = layer;
    this.projection = projection;
    this.readout = readout;
    this.on = false;
    this.ends = []; // up to two of {ship} or {hex}
    this.counters = [];
    this.ranges = {};
  }

  toggle(on = !this.on) {
    this.on = Boolean(on);
    if (!this.on) this.ends = [];
    this.draw();
  }

  /** A click while the ruler is on: the first end, the second, then a new first. */
  pick(end) {
    if (this.ends.length >= 2) this.ends = [];
    this.ends.push(end);
    this.draw();
  }

  /** The ships now (a ship end moves with its ship) and the scene's ranges between them. */
  update(counters, ranges) {
    this.counters = counters || [];
    this.ranges = ranges || {};
    this.draw();
  }

  /** An end's hex and altitude and its name, or null for a ship no longer on the map. */
  where(end) {
    if (end.hex) return { hex: end.hex, altitude: 0, name: end.hex };
    const c = this.counters.find((x) => x.id === end.ship);
    return c ? { hex: c.hex, altitude: c.altitude || 0, name: c.id } : null;
  }

  /** What the ruler measures now: {hexes, range (the rules' words, or null), text}, or null. */
  measure() {
    const [a, b] = this.ends.map((e) => this.where(e));
    if (!a || !b) return null;
    const hexes = hexDistance(a.hex, b.hex);
    const ships = this.ends.every((e) => e.ship);
    const range = ships ? (this.ranges[this.ends[0].ship] || {})[this.ends[1].ship] || null : null;
    const text = `${a.name} to ${b.name}: ${hexes} ${hexes === 1 ? "hex" : "hexes"}${range ? `; ${range}` : ""}`;
    return { hexes, range, text };
  }

  draw() {
    const layer = this.layer;
    layer.replaceChildren();
    const readout = this.readout;
    readout.hidden = !this.on;
    const svg = layer.ownerSVGElement;
    if (svg) svg.dataset.ruler = this.on ? "on" : "off";
    if (!this.on) return;
    const points = this.ends.map((e) => this.where(e)).filter(Boolean);
    const at = points.map((p) => this.projection.project(p.hex, p.altitude));
    for (const p of at) el("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 6, class: "ruler-end" }, layer);
    const m = this.measure();
    if (at.length === 2) {
      el("line", { x1: at[0].x, y1: at[0].y, x2: at[1].x, y2: at[1].y, class: "ruler-line" }, layer);
      const label = el("text", { x: (at[0].x + at[1].x) / 2, y: (at[0].y + at[1].y) / 2 - 8, class: "ruler-label" }, layer);
      label.textContent = m ? `${m.hexes}` : "";
    }
    readout.dataset.hexes = m ? String(m.hexes) : "";
    readout.textContent = m
      ? m.text
      : points.length
        ? `Ruler from ${points[0].name}: click a ship or a hex for the other end`
        : "Ruler: click a ship or a hex, then another (R or Esc to put it away)";
  }
}
