// What the orders panel draws over the map while a player decides: shaded hexes (the reach of a
// ship being plotted, a weapon's arc) on the plane, and the ghost of one plot: its path, its
// steps, and the counter where it ends (in 3-D each step at its own altitude).

import { SIZE, el, hexPoints } from "./geometry.js";

export class Overlays {
  /** `layers` holds the reach, arc and ghost groups; `pieces` draws the ghost's counter. */
  constructor(layers, projection, pieces) {
    this.layers = layers;
    this.projection = projection;
    this.pieces = pieces;
    // What the ghost was last asked to show, so switching the view can draw it again.
    this.ghostArgs = [null];
  }

  /** Shade hexes in a layer ("reach" or "arc"); `hexes` is an array of "col,row". */
  shade(layerName, hexes, cls) {
    const layer = this.layers[layerName];
    layer.replaceChildren();
    for (const h of new Set(hexes || [])) {
      el("polygon", { points: hexPoints(h, SIZE * 0.94), class: cls, "data-hex": h }, layer);
    }
  }

  /** Draw the ghost again as last asked (after the view changed). */
  redrawGhost() {
    this.ghost(...this.ghostArgs);
  }

  /** Draw the ghost of one plot (null clears it); in 3-D each step of the path at its own altitude. */
  ghost(counter, option, colour) {
    this.ghostArgs = [counter, option, colour];
    const layer = this.layers.ghost;
    layer.replaceChildren();
    if (!counter || !option) return;
    const path = option.path || [];
    const end = option.end || path[path.length - 1];
    if (!end) return;
    const projection = this.projection;
    const warned = Boolean(option.warnings && option.warnings.length);
    const g = el("g", { id: "ghost", class: warned ? "ghost warned" : "ghost", "data-ship": counter.id, "data-end": end.hex, "data-text": option.text }, layer);
    const at = (p) => projection.project(p.hex, p.altitude);
    const pointsOf = (list) => list.map((c) => `${c.x.toFixed(1)},${c.y.toFixed(1)}`).join(" ");
    const climbs = projection.threeD && path.some((p) => p.altitude);
    // A climbing path also gets its trace on the plane, so the hexes it crosses stay readable.
    if (climbs && path.length > 1) {
      el("polyline", { points: pointsOf(path.map((p) => projection.project(p.hex, 0))), class: "ghost-trace", stroke: colour }, g);
    }
    if (path.length > 1) el("polyline", { points: pointsOf(path.map(at)), class: "ghost-path", stroke: colour }, g);
    for (const p of path.slice(1, -1)) {
      const c = at(p);
      el("circle", { cx: c.x, cy: c.y, r: 3, class: "ghost-step", fill: colour }, g);
    }
    const e = at(end);
    if (projection.threeD) {
      const base = projection.project(end.hex, 0);
      this.pieces.stand({ altitude: end.altitude }, base, e, colour, { ghost: true, shadowLayer: g, stalkLayer: g });
    }
    const cg = el("g", { class: "ghost-counter", "data-altitude": end.altitude || 0, ...this.pieces.placed(e.x, e.y) }, g);
    this.pieces.counterShape(cg, { ...counter, facing: option.facing || counter.facing, altitude: end.altitude }, colour, true);
  }
}
