// The SVG hex map, put together from its parts: the board (board.js), the pieces (pieces.js), the
// shading and ghost the orders panel draws (overlays.js), pan and zoom (viewport.js, fit.js,
// input.js), all placed through one projection (geometry.js) so the map can tilt into a 3-D view
// for games with altitude, where counters stand above or below the plane.

import { drawBoard } from "./board.js";
import { fitScene } from "./fit.js";
import { Projection, TILT, el, raisedPositions } from "./geometry.js";
import { installPanZoom } from "./input.js";
import { Overlays } from "./overlays.js";
import { Pieces } from "./pieces.js";
import { Tracks } from "./tracks.js";
import { Viewport } from "./viewport.js";

export { LIFT, SIZE, TILT, centre, facingAngle, hasAltitude, parseHex } from "./geometry.js";
export { MAX_FIT_SCALE, MIN_FIT_SCALE } from "./fit.js";

export class HexMap {
  constructor(svg, { onCounterClick, onHexClick, onViewKey, focus } = {}) {
    this.svg = svg;
    const layers = {};
    // Everything that lies on the map plane shares one group, so tilting it is one transform.
    this.plane = el("g", { class: "plane" }, svg);
    for (const name of ["grid", "terrain", "sections", "reach", "arc", "trails"]) {
      layers[name] = el("g", { class: `layer-${name}` }, this.plane);
    }
    // Pieces stay upright in 3-D, so they live outside the plane and are placed by project().
    for (const name of ["tracks", "shadows", "markers", "ghost", "counters"]) {
      layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this.layers = layers;
    svg.dataset.view = "flat";
    this.sideColours = {};
    this.extentKey = "";
    this.raisedKey = "[]";
    this.projection = new Projection();
    this.pieces = new Pieces(svg, layers, this.projection, (side) => this.colour(side));
    this.overlays = new Overlays(layers, this.projection, this.pieces);
    this.trackLines = new Tracks(layers.tracks, this.projection, (ship) => {
      const counter = (this.pieces.counters || []).find((c) => c.id === ship);
      return this.colour(counter ? counter.side : null);
    });
    // The ship the zoom buttons and keys centre on (the selected or the player's own), or null.
    this.viewport = new Viewport(svg, this.projection, this.pieces, focus || (() => null));
    installPanZoom(svg, this.viewport, this.projection, {
      onCounterClick: onCounterClick || (() => {}),
      onHexClick: onHexClick || (() => {}),
      onViewKey: onViewKey || (() => {}),
    });
  }

  /** Draw the board and pieces of a scene; keeps the current pan and zoom if the map is the same. */
  render(scene) {
    const viewport = this.viewport;
    this.sideColours = Object.fromEntries((scene.sides || []).map((s) => [s.name, s.colour]));
    const map = scene.map || {};
    const key = JSON.stringify([map.extent, map.sections, map.terrain]);
    viewport.raised = raisedPositions(scene);
    const raisedKey = JSON.stringify(viewport.raised);
    const moved = raisedKey !== this.raisedKey;
    this.raisedKey = raisedKey;
    viewport.scene = fitScene(scene);
    if (key !== this.extentKey) {
      this.extentKey = key;
      viewport.planeBounds = drawBoard(this.layers, map);
      viewport.updateBounds();
      viewport.fitShips();
    } else if (moved && this.threeD) {
      viewport.reframe(() => viewport.updateBounds());
    }
    this.pieces.draw(scene.counters || []);
    viewport.follow();
  }

  get threeD() {
    return this.projection.threeD;
  }

  get counters() {
    return this.pieces.counters;
  }

  colour(side) {
    return this.sideColours[side] || "#888";
  }

  /** Where a hex at an altitude is drawn, in SVG units (see Projection). */
  project(hexText, altitude = 0) {
    return this.projection.project(hexText, altitude);
  }

  /** The plane's hex under an SVG point. */
  hexAt(x, svgY) {
    return this.projection.hexAt(x, svgY);
  }

  /** Switch between the flat map and the tilted 3-D view, looking at the same place. */
  setThreeD(on) {
    on = Boolean(on);
    if (on === this.threeD) return;
    this.viewport.reframe(() => {
      this.projection.threeD = on;
      this.svg.dataset.view = on ? "3d" : "flat";
      if (on) this.plane.setAttribute("transform", `scale(1,${TILT})`);
      else this.plane.removeAttribute("transform");
      this.viewport.updateBounds();
      this.pieces.draw(this.pieces.counters);
      this.overlays.redrawGhost();
      this.trackLines.redraw();
    });
  }

  // What the page and the orders panel ask of the map, answered by the part that does it.

  fitShips() {
    this.viewport.fitShips();
  }

  fitBoard() {
    this.viewport.fitBoard();
  }

  zoomStep(factor) {
    this.viewport.zoomStep(factor);
  }

  centreOn(hexText, altitude = 0) {
    this.viewport.centreOn(hexText, altitude);
  }

  ensureVisible(hexText, altitude = 0) {
    this.viewport.ensureVisible(hexText, altitude);
  }

  /** A replay's trails and shot lines (see tracks.js); null clears them. */
  tracks(tracks, show) {
    this.trackLines.draw(tracks, show);
  }

  shade(layerName, hexes, cls) {
    this.overlays.shade(layerName, hexes, cls);
  }

  mark(ids) {
    this.pieces.mark(ids);
  }

  ghost(counter, option, colour) {
    this.overlays.ghost(counter, option, colour);
  }
}
