// The SVG hex map, put together from its parts: the board (board.js) and, on a geomorphic map,
// the endless sheet under it (sheet.js), the pieces (pieces.js), the shading and ghost the orders
// panel draws (overlays.js), pan, zoom and following the ships (viewport.js, fit.js, input.js),
// arrows at the edge toward ships off screen (edges.js) and the range ruler (ruler.js), all
// placed through one projection (geometry.js) so the map can tilt into a 3-D view for games with
// altitude, where counters stand above or below the plane.

import { drawBoard } from "./board.js";
import { EdgeArrows } from "./edges.js";
import { fitScene } from "./fit.js";
import { Projection, TILT, el, raisedPositions } from "./geometry.js";
import { installPanZoom } from "./input.js";
import { Overlays } from "./overlays.js";
import { Pieces } from "./pieces.js";
import { Ruler } from "./ruler.js";
import { Sheet } from "./sheet.js";
import { Tracks } from "./tracks.js";
import { Viewport } from "./viewport.js";

export { LIFT, SIZE, TILT, centre, facingAngle, hasAltitude, parseHex } from "./geometry.js";
export { MAX_FIT_SCALE, MIN_FIT_SCALE } from "./fit.js";

export class HexMap {
  /**
   * `onModes({follow, ruler})` is told when following the ships or the ruler is switched on or
   * off (the page's buttons show it).
   */
  constructor(svg, { onCounterClick, onHexClick, onViewKey, focus, onModes } = {}) {
    this.svg = svg;
    const layers = {};
    const defs = el("defs", {}, svg);
    // Everything that lies on the map plane shares one group, so tilting it is one transform.
    this.plane = el("g", { class: "plane" }, svg);
    for (const name of ["sheet", "grid", "terrain", "sections", "reach", "arc", "trails"]) {
      layers[name] = el("g", { class: `layer-${name}` }, this.plane);
    }
    // Pieces stay upright in 3-D, so they live outside the plane and are placed by project().
    // The ruler lies under the counters, so its ends never hide a counter's name.
    for (const name of ["tracks", "shadows", "markers", "ghost", "ruler", "counters"]) {
      layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this.layers = layers;
    svg.dataset.view = "flat";
    this.sideColours = {};
    this.extentKey = "";
    this.placesKey = "";
    this.modesKey = "";
    this.projection = new Projection();
    this.pieces = new Pieces(svg, layers, this.projection, (side) => this.colour(side));
    this.overlays = new Overlays(layers, this.projection, this.pieces);
    this.trackLines = new Tracks(layers.tracks, this.projection, (ship) => {
      const counter = (this.pieces.counters || []).find((c) => c.id === ship);
      return this.colour(counter ? counter.side : null);
    });
    // The ship the zoom buttons and keys centre on (the selected or the player's own), or null.
    this.viewport = new Viewport(svg, this.projection, this.pieces, focus || (() => null));
    this.sheet = new Sheet(defs, layers.sheet);
    this.geomorphic = false;
    this.edges = new EdgeArrows(svg, (id) => this.bringIntoView(id), (side) => this.colour(side));
    const readout = document.createElement("div");
    readout.className = "ruler-readout";
    readout.setAttribute("role", "status");
    readout.hidden = true;
    this.edges.box.after(readout);
    this.ruler = new Ruler(layers.ruler, this.projection, readout);
    this.onModes = onModes || (() => {});
    this.viewport.onChange = () => this.viewChanged();
    const counterClick = onCounterClick || (() => {});
    const hexClick = onHexClick || (() => {});
    // While the ruler is out, a click on the map picks its ends and does nothing else.
    installPanZoom(svg, this.viewport, this.projection, {
      onCounterClick: (id, ev) => (this.ruler.on ? this.ruler.pick({ ship: id }) : counterClick(id, ev)),
      onHexClick: (hex, ev) => (this.ruler.on ? this.ruler.pick({ hex }) : hexClick(hex, ev)),
      onViewKey: onViewKey || (() => {}),
      onFollowKey: () => this.toggleFollow(),
      onRulerKey: () => this.toggleRuler(),
      onEscape: () => this.toggleRuler(false),
    });
  }

  /** The ships in play (the frame, the edge arrows and following are about these). */
  live() {
    const counters = this.pieces.counters || [];
    return counters.filter((c) => !c.status || c.status === "active");
  }

  /** After every change of the view: the sheet under it, the edge arrows, the buttons. */
  viewChanged() {
    const viewport = this.viewport;
    if (!viewport.view) return;
    if (this.geomorphic) this.sheet.cover(viewport.planeArea());
    this.edges.update(this.live(), (c) => viewport.onScreen(c.hex, c.altitude));
    const modes = { follow: viewport.auto, ruler: this.ruler.on };
    const key = JSON.stringify(modes);
    if (key !== this.modesKey) {
      this.modesKey = key;
      this.onModes(modes);
    }
  }

  /** An edge arrow's click: the ship in the middle of the view, at the same zoom (following stops). */
  bringIntoView(id) {
    const c = (this.pieces.counters || []).find((x) => x.id === id);
    if (!c) return;
    this.viewport.auto = false;
    this.viewport.centreOn(c.hex, c.altitude || 0);
  }

  /** Follow the ships (fit them now and after each update), or stop following and keep the view. */
  toggleFollow(on = !this.viewport.auto) {
    if (on) this.viewport.fitShips();
    else this.viewport.auto = false;
    this.viewChanged();
  }

  /** Take the ruler out, or put it away. */
  toggleRuler(on = !this.ruler.on) {
    this.ruler.toggle(on);
    this.viewChanged();
  }

  /** Draw the board and pieces of a scene; keeps the current pan and zoom if the map is the same. */
  render(scene) {
    const viewport = this.viewport;
    this.sideColours = Object.fromEntries((scene.sides || []).map((s) => [s.name, s.colour]));
    const map = scene.map || {};
    const key = JSON.stringify([map.extent, map.sections, map.terrain, Boolean(map.geomorphic)]);
    viewport.raised = raisedPositions(scene);
    // What the area panning may show depends on: where the ships are, and in 3-D how high.
    const placesKey = JSON.stringify([viewport.raised, (scene.counters || []).map((c) => [c.hex, c.status, c.markers])]);
    const moved = placesKey !== this.placesKey;
    this.placesKey = placesKey;
    viewport.scene = fitScene(scene);
    if (key !== this.extentKey) {
      this.extentKey = key;
      this.geomorphic = Boolean(map.geomorphic);
      viewport.geomorphic = this.geomorphic;
      this.layers.sheet.replaceChildren();
      this.sheet.clear();
      viewport.planeBounds = drawBoard(this.layers, map);
      viewport.updateBounds();
      viewport.fitShips();
    } else if (moved) {
      viewport.reframe(() => viewport.updateBounds());
    }
    this.pieces.draw(scene.counters || []);
    this.ruler.update(scene.counters || [], scene.ranges || {});
    viewport.follow();
    this.viewChanged();
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
      this.ruler.draw();
    });
  }

  // What the page and the orders panel ask of the map, answered by the part that does it.

  fitShips() {
    this.viewport.fitShips();
  }

  fitBoard() {
    this.viewport.fitBoard();
    this.viewChanged();
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
