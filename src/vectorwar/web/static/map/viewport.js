// Pan and zoom: the SVG viewBox, kept inside the board and the ships (a geomorphic map has no
// edge to keep to); zooming about a point or the focused ship; the default view fitted to every
// ship in play and followed after each update until the player pans or zooms (or switches
// following off); the whole board on request; and keeping the view when the window or the
// projection changes.

import { SIZE, TILT } from "./geometry.js";
import { boardView, boxAround, fitScene, fitSets, shipsView, union } from "./fit.js";

// Room panning leaves round the ships beyond the board.
const SHIP_ROOM = SIZE * 6;

export class Viewport {
  /**
   * `pieces` grows counters when zoomed far out and knows where they are; `focus()` names the
   * ship the zoom centres on (the selected or the player's own), or null.
   */
  constructor(svg, projection, pieces, focus) {
    this.svg = svg;
    this.projection = projection;
    this.pieces = pieces;
    this.focus = focus;
    this.view = null; // {x, y, w, h}
    // Following the ships: the view is fitted to them again whenever they move, until the player
    // pans or zooms it themselves or switches it off (fitting the ships again starts it again).
    this.following = true;
    this.onChange = () => {}; // told after every change of the view or of following
    this.geomorphic = false;
    this.fitKey = "";
    this.scene = fitScene({});
    this.bounds = null;
    this.planeBounds = null; // the board's own area, in plane (flat) coordinates
    this.raised = [];
    this.scale = undefined;
    if (window.ResizeObserver) new ResizeObserver(() => this.resized()).observe(svg);
  }

  get auto() {
    return this.following;
  }

  set auto(on) {
    if (this.following === Boolean(on)) return;
    this.following = Boolean(on);
    this.svg.dataset.follow = String(this.following);
    this.onChange();
  }

  screenSize() {
    return { width: this.svg.clientWidth || 800, height: this.svg.clientHeight || 600 };
  }

  resized() {
    if (!this.view) return;
    this.pieces.scaleDone = false;
    if (this.auto) {
      this.fitShips();
      return;
    }
    // Keep the middle of the view and the zoom; only the shape of the window changed.
    const v = this.view;
    const { width, height } = this.screenSize();
    const k = this.scale || Math.min(width / v.w, height / v.h);
    const cx = v.x + v.w / 2;
    const cy = v.y + v.h / 2;
    this.view = { x: cx - width / k / 2, y: cy - height / k / 2, w: width / k, h: height / k };
    this.applyView();
  }

  /**
   * Change what the view is drawn in (`change`), then put the view back where the player had it:
   * one who saw the whole map keeps seeing all of it, a zoomed-in one keeps the same plane point
   * in the middle.
   */
  reframe(change) {
    const v = this.view;
    const b = this.bounds;
    const whole = v && b && v.w >= b.w - 0.5 && v.h >= b.h - 0.5;
    const focus = v ? { x: v.x + v.w / 2, y: (v.y + v.h / 2) / this.projection.tilt } : null;
    change();
    if (!v) return;
    if (this.auto) {
      this.fitShips();
    } else if (whole) {
      this.fitBoard();
    } else {
      v.x = focus.x - v.w / 2;
      v.y = focus.y * this.projection.tilt - v.h / 2;
      this.applyView();
    }
  }

  /**
   * The area panning may show: the board and every ship in play with some room round it, and in
   * 3-D also the room above and below the board that pieces use.
   */
  updateBounds() {
    const p = this.planeBounds;
    if (!p) return;
    const live = this.scene.counters.filter((c) => !c.status || c.status === "active");
    const points = live.flatMap((c) => [
      this.projection.project(c.hex, c.altitude),
      ...(c.markers || []).map((m) => this.projection.project(m, 0)),
    ]);
    const ships = points.length ? boxAround(points, SHIP_ROOM) : null;
    if (!this.projection.threeD) {
      this.bounds = union({ ...p }, ships);
      return;
    }
    // Room for a whole counter (at its largest) beyond the highest and the lowest position.
    const margin = SIZE * 1.6;
    let top = p.y * TILT;
    let bottom = (p.y + p.h) * TILT;
    for (const r of this.raised) {
      const { y } = this.projection.project(r.hex, r.altitude);
      top = Math.min(top, y - margin);
      bottom = Math.max(bottom, y + margin);
    }
    this.bounds = union({ x: p.x, y: top, w: p.w, h: bottom - top }, ships);
  }

  fitKeyNow() {
    return JSON.stringify([this.projection.threeD, fitSets(this.scene, this.projection, this.focus())]);
  }

  /** Fit the view to the ships again if they moved since it was last fitted (while following). */
  follow() {
    if (this.auto && this.fitKey !== this.fitKeyNow()) this.fitShips();
  }

  /** The default view (see fit.js `shipsView`). Starts following the ships again. */
  fitShips() {
    this.auto = true;
    if (!this.bounds) return;
    this.fitKey = this.fitKeyNow();
    const sets = fitSets(this.scene, this.projection, this.focus());
    this.view = shipsView(this.bounds, sets, this.screenSize(), { geomorphic: this.geomorphic });
    this.applyView();
  }

  /** The whole board, however small its hexes get (the player asked for it: no more following). */
  fitBoard() {
    if (!this.bounds) return;
    this.auto = false;
    this.view = boardView(this.bounds, this.screenSize());
    this.applyView();
  }

  applyView() {
    const v = this.view;
    // Keep the map on screen: pan no further than its edge, and centre it when zoomed out past it.
    // A geomorphic map has no edge: the sheet goes on wherever the view goes.
    const b = this.bounds;
    if (b && !this.geomorphic) {
      v.x = v.w >= b.w ? b.x - (v.w - b.w) / 2 : Math.min(Math.max(v.x, b.x), b.x + b.w - v.w);
      v.y = v.h >= b.h ? b.y - (v.h - b.h) / 2 : Math.min(Math.max(v.y, b.y), b.y + b.h - v.h);
    }
    this.svg.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
    const { width, height } = this.screenSize();
    this.scale = Math.min(width / v.w, height / v.h);
    this.svg.dataset.scale = this.scale.toFixed(3);
    this.svg.dataset.follow = String(this.auto);
    this.pieces.rescale(this.scale);
    this.onChange();
  }

  zoom(factor, cx = null, cy = null) {
    const v = this.view;
    if (!v) return;
    const px = cx === null ? v.x + v.w / 2 : cx;
    const py = cy === null ? v.y + v.h / 2 : cy;
    const w = Math.min(Math.max(v.w / factor, SIZE * 6), this.bounds.w * 3);
    const f = v.w / w;
    this.view = { x: px - (px - v.x) / f, y: py - (py - v.y) / f, w, h: v.h / f };
    this.applyView();
  }

  /**
   * The zoom buttons and keys: centre on the focused ship (the selected or the player's own, see
   * `focus`) and zoom there, so zooming in never loses the ship; with none, the view's middle.
   */
  zoomStep(factor) {
    if (!this.view) return;
    this.auto = false;
    const id = this.focus();
    const c = id ? this.pieces.counters.find((x) => x.id === id) : null;
    if (c) {
      const { x, y } = this.projection.project(c.hex, c.altitude);
      this.view.x = x - this.view.w / 2;
      this.view.y = y - this.view.h / 2;
      this.zoom(factor, x, y);
    } else {
      this.zoom(factor);
    }
  }

  pan(dx, dy) {
    if (!this.view) return;
    this.view.x += dx;
    this.view.y += dy;
    this.applyView();
  }

  /** Centre the view on a hex (at an altitude, in 3-D) without changing the zoom. */
  centreOn(hexText, altitude = 0) {
    if (!this.view) return;
    const { x, y } = this.projection.project(hexText, altitude);
    this.view.x = x - this.view.w / 2;
    this.view.y = y - this.view.h / 2;
    this.applyView();
  }

  /**
   * Bring a hex into view (keeping the zoom) when it lies outside the middle of the view; while
   * following the ships, only when it is off the view altogether (moving the view would lose
   * the others).
   */
  ensureVisible(hexText, altitude = 0) {
    if (!this.view) return;
    const { x, y } = this.projection.project(hexText, altitude);
    const v = this.view;
    if (this.auto && x >= v.x && x <= v.x + v.w && y >= v.y && y <= v.y + v.h) return;
    const mx = v.w * 0.1;
    const my = v.h * 0.1;
    if (x < v.x + mx || x > v.x + v.w - mx || y < v.y + my || y > v.y + v.h - my) this.centreOn(hexText, altitude);
  }

  /** The plane area (flat coordinates) the view shows now. */
  planeArea() {
    const v = this.view;
    const t = this.projection.tilt;
    return { x: v.x, y: v.y / t, w: v.w, h: v.h / t };
  }

  /** Where a hex at an altitude is on screen, in pixels from the map's top left corner. */
  onScreen(hexText, altitude = 0) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const { x, y } = this.projection.project(hexText, altitude);
    const p = new DOMPoint(x, y).matrixTransform(m);
    const r = this.svg.getBoundingClientRect();
    return { x: p.x - r.left, y: p.y - r.top };
  }

  /** The SVG point under a screen point. */
  toSvg(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = pt.matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
}
