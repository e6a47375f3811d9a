// A replay's trails and shots over the map: each ship's positions turn by turn joined by a dotted
// line in its side's colour, and each shot of the turn just shown as a line from the shooter to
// its target (solid for a hit, dashed for a miss). The server works them out (web/tracks.py);
// pieces stand upright in 3-D, so these are placed through the projection like counters.

import { el } from "./geometry.js";

export class Tracks {
  /** `colourOf(shipId)` gives a ship's side colour. */
  constructor(layer, projection, colourOf) {
    this.layer = layer;
    this.projection = projection;
    this.colourOf = colourOf;
    this.args = [null, {}];
  }

  redraw() {
    this.draw(...this.args);
  }

  /** Draw `tracks` ({trails, shots, turn}; null clears); `show` says which: {trails, shots}. */
  draw(tracks, show = {}) {
    this.args = [tracks, show];
    const layer = this.layer;
    layer.replaceChildren();
    if (!tracks) return;
    const at = (p) => this.projection.project(p.hex, p.altitude || 0);
    const fmt = (c) => `${c.x.toFixed(1)},${c.y.toFixed(1)}`;
    if (show.trails !== false) {
      for (const [ship, points] of Object.entries(tracks.trails || {})) {
        const colour = this.colourOf(ship);
        const g = el("g", { class: "trail-group", "data-ship": ship, "data-points": points.length, style: `--side:${colour}` }, layer);
        const xy = points.map(at);
        if (xy.length > 1) el("polyline", { class: "trail", points: xy.map(fmt).join(" ") }, g);
        // Every point but the last, where the counter itself stands.
        for (const c of xy.slice(0, -1)) el("circle", { class: "trail-point", cx: c.x.toFixed(1), cy: c.y.toFixed(1), r: 3.5 }, g);
      }
    }
    if (show.shots !== false && tracks.turn !== null && tracks.turn !== undefined) {
      const shots = (tracks.shots || []).filter((s) => s.turn === tracks.turn);
      // Shots between the same two ships are drawn side by side, a few units apart, not on top of each other.
      const pairOf = (s) => [s.shooter, s.target].sort().join("|");
      const count = {};
      for (const s of shots) count[pairOf(s)] = (count[pairOf(s)] || 0) + 1;
      const seen = {};
      for (const shot of shots) {
        const pair = pairOf(shot);
        const k = (seen[pair] = (seen[pair] || 0) + 1) - 1;
        const shift = (k - (count[pair] - 1) / 2) * 4;
        const [p, q] = shot.shooter < shot.target ? [at(shot.from), at(shot.to)] : [at(shot.to), at(shot.from)];
        const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
        const nx = (-(q.y - p.y) / len) * shift;
        const ny = ((q.x - p.x) / len) * shift;
        const a = { x: at(shot.from).x + nx, y: at(shot.from).y + ny };
        const b = { x: at(shot.to).x + nx, y: at(shot.to).y + ny };
        const result = shot.hit === true ? "hit" : shot.hit === false ? "miss" : "";
        el(
          "line",
          {
            class: `shot-line ${result}`.trim(),
            x1: a.x.toFixed(1),
            y1: a.y.toFixed(1),
            x2: b.x.toFixed(1),
            y2: b.y.toFixed(1),
            "data-shooter": shot.shooter,
            "data-target": shot.target,
            "data-turn": shot.turn,
            "data-kind": shot.kind,
          },
          layer,
        );
      }
    }
  }
}
