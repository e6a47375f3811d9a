// The endless hex sheet of a geomorphic map (AV:T: another sheet is laid down wherever the ships
// fly, so the scenario's board only frames where they started). The grid is one SVG pattern that
// tiles the plane, drawn over the area the view shows and some way round it; a coordinate every
// five hexes is written over the same area, again when the view leaves it.

import { H, SIZE, centre, corners, el } from "./geometry.js";

// One tile of the pattern: two columns wide (odd columns sit half a hex lower) and a hex tall.
const TILE_W = 3 * SIZE;
// The hexes whose edges cross one tile: its four corners' and the odd column's in the middle.
const TILE_HEXES = [
  [0, 0],
  [TILE_W, 0],
  [0, H],
  [TILE_W, H],
  [TILE_W / 2, H / 2],
];
// Beyond this many coordinates the sheet writes one every ten hexes instead of five.
const MAX_LABELS = 1200;

let sheets = 0;

export class Sheet {
  /** `defs` holds the pattern; `layer` (on the plane) the sheet and its coordinates. */
  constructor(defs, layer) {
    this.layer = layer;
    this.id = `hex-sheet-${++sheets}`;
    const pattern = el("pattern", { id: this.id, patternUnits: "userSpaceOnUse", x: 0, y: 0, width: TILE_W, height: H }, defs);
    const d = TILE_HEXES.map(([x, y]) => `M${corners(x, y).map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join("L")}Z`).join("");
    el("path", { d, class: "hex-grid" }, pattern);
    this.covered = null; // the plane area drawn, {x, y, w, h}
  }

  /** Drop the sheet (the map is bounded, or another map is shown). */
  clear() {
    this.covered = null;
  }

  /**
   * Make sure the sheet covers plane area `area` (flat coordinates); when it does not, draw it
   * over that area and as much again all round, so panning a little redraws nothing.
   */
  cover(area) {
    const c = this.covered;
    if (c && area.x >= c.x && area.y >= c.y && area.x + area.w <= c.x + c.w && area.y + area.h <= c.y + c.h) return;
    const drawn = { x: area.x - area.w, y: area.y - area.h, w: area.w * 3, h: area.h * 3 };
    this.covered = drawn;
    const layer = this.layer;
    layer.replaceChildren();
    const fill = `url(#${this.id})`;
    el("rect", { x: drawn.x, y: drawn.y, width: drawn.w, height: drawn.h, class: "hex-sheet", fill }, layer);
    const c0 = Math.floor(drawn.x / (1.5 * SIZE));
    const c1 = Math.ceil((drawn.x + drawn.w) / (1.5 * SIZE));
    const r0 = Math.floor(drawn.y / H);
    const r1 = Math.ceil((drawn.y + drawn.h) / H);
    const count = ((c1 - c0) * (r1 - r0)) / 25;
    const every = count > MAX_LABELS ? 10 : 5;
    for (let c = Math.ceil(c0 / every) * every; c <= c1; c += every) {
      for (let r = Math.ceil(r0 / every) * every; r <= r1; r += every) {
        const { x, y } = centre(`${c},${r}`);
        const t = el("text", { x, y: y + SIZE * 0.62, class: "hex-coord" }, layer);
        t.textContent = `${c},${r}`;
      }
    }
  }
}
