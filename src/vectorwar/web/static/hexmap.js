// The SVG hex map: flat-topped hexes in odd-q offset "col,row" (odd columns half a hex lower),
// directions A-F clockwise with A at the top. Draws sections, terrain, counters, vector markers,
// shading (reachable hexes, weapon arcs) and the ghost of a plot; pans and zooms. For games with
// altitude it can tilt the map into a 3-D view where counters stand above or below the plane.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SIZE = 20; // centre to corner, in SVG units
const H = Math.sqrt(3) * SIZE;
// The 3-D view is an oblique projection: the plane keeps its width and loses half its depth, which
// reads as a table seen from above at an angle without hiding anything behind anything else.
export const TILT = 0.5;
// One altitude level is about a hex tall, so a climb of N levels looks like N hexes of height;
// a little less keeps the highest counters of a scenario (AV:T goes to 6 or so) near the map.
export const LIFT = 0.8 * H;
// Shadows are a bit wider than a counter so they stay visible around one at altitude 0.
const SHADOW_R = SIZE * 0.78;
// The default view (fitShips): never smaller than this many screen pixels per SVG unit, so a hex
// is at least 34 px corner to corner (29 px flat to flat) and a counter stays readable; and never
// bigger than MAX_FIT_SCALE just because two ships are close together.
export const MIN_FIT_SCALE = 0.85;
export const MAX_FIT_SCALE = 1.6;
// Room left around the ships when fitting, so no counter (or facing arrow) touches the map's edge.
const FIT_MARGIN = SIZE * 2.2;

export function parseHex(text) {
  const [c, r] = String(text).split(",").map((s) => parseInt(s.trim(), 10));
  return { col: c, row: r };
}

export function centre(hexText) {
  const { col, row } = parseHex(hexText);
  const odd = ((col % 2) + 2) % 2;
  return { x: col * 1.5 * SIZE, y: row * H + (odd ? H / 2 : 0) };
}

function corners(cx, cy, size = SIZE) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i);
    pts.push([cx + size * Math.cos(a), cy + size * Math.sin(a)]);
  }
  return pts;
}

function hexPoints(hexText, size = SIZE) {
  const { x, y } = centre(hexText);
  return corners(x, y, size)
    .map(([px, py]) => `${px.toFixed(2)},${py.toFixed(2)}`)
    .join(" ");
}

/** Screen angle in degrees of a facing letter: A up, then clockwise in 60-degree steps. */
export function facingAngle(letter) {
  // A counter with no facing (an AV:T target, a derelict) gets no arrow: "" would match at index 0.
  const text = String(letter || "").toUpperCase();
  const i = text.length === 1 ? "ABCDEF".indexOf(text) : -1;
  return i < 0 ? null : -90 + 60 * i;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

const TERRAIN_LABELS = {
  asteroid: "asteroid",
  "dense-body": "dense body",
  dense: "dense body",
  "asteroid-field": "asteroid field",
  blocking: "blocking",
  planet: "planet",
};

/**
 * Every position off the plane in a scene (counters and each step of a legal plot): what fitting
 * the 3-D view must leave room for, above and below the board.
 */
function raisedPositions(scene) {
  const out = [];
  const see = (hex, altitude) => {
    if (altitude) out.push({ hex, altitude });
  };
  for (const c of scene.counters || []) see(c.hex, c.altitude);
  for (const options of Object.values(scene.move_options || {})) {
    for (const o of options) {
      for (const p of o.path || []) see(p.hex, p.altitude);
      if (o.end) see(o.end.hex, o.end.altitude);
    }
  }
  return out;
}

/** Whether a scene has a third dimension worth a 3-D view. */
export function hasAltitude(scene) {
  return scene.system === "avt" || (scene.counters || []).some((c) => c.altitude);
}

export class HexMap {
  constructor(svg, { onCounterClick, onHexClick, onViewKey, focus } = {}) {
    this.svg = svg;
    this.onCounterClick = onCounterClick || (() => {});
    this.onHexClick = onHexClick || (() => {});
    this.onViewKey = onViewKey || (() => {});
    // The ship the zoom buttons and keys centre on (the selected or the player's own), or null.
    this.focus = focus || (() => null);
    this.view = null; // {x, y, w, h}
    // Following the ships: the view is fitted to them again whenever they move, until the player
    // pans or zooms it themselves (fitting the ships again starts following again).
    this.auto = true;
    this.fitKey = "";
    this.fitScene = null;
    this.bounds = null;
    this.planeBounds = null; // the board's own area, in plane (flat) coordinates
    this.raised = [];
    this.raisedKey = "[]";
    this.threeD = false;
    this.extentKey = "";
    this.counters = [];
    this.ghostArgs = [null];
    this.layers = {};
    // Everything that lies on the map plane shares one group, so tilting it is one transform.
    this.plane = el("g", { class: "plane" }, svg);
    for (const name of ["grid", "terrain", "sections", "reach", "arc", "trails"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, this.plane);
    }
    // Pieces stay upright in 3-D, so they live outside the plane and are placed by project().
    for (const name of ["shadows", "markers", "ghost", "counters"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    svg.dataset.view = "flat";
    this.sideColours = {};
    this.marked = new Set();
    this.installPanZoom();
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        if (!this.view) return;
        this.pieceScaleDone = false;
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
      }).observe(svg);
    }
  }

  screenSize() {
    return { width: this.svg.clientWidth || 800, height: this.svg.clientHeight || 600 };
  }

  /** Draw the board and pieces of a scene; keeps the current pan and zoom if the map is the same. */
  render(scene) {
    this.sideColours = Object.fromEntries((scene.sides || []).map((s) => [s.name, s.colour]));
    const map = scene.map || {};
    const key = JSON.stringify([map.extent, map.sections, map.terrain]);
    this.raised = raisedPositions(scene);
    const raisedKey = JSON.stringify(this.raised);
    const moved = raisedKey !== this.raisedKey;
    this.raisedKey = raisedKey;
    this.fitScene = {
      counters: scene.counters || [],
      viewer: scene.viewer || [],
      move_options: scene.move_options || {},
      fire_options: scene.fire_options || {},
    };
    if (key !== this.extentKey) {
      this.extentKey = key;
      this.drawBoard(map);
    } else if (moved && this.threeD) {
      this.reframe(() => this.updateBounds());
    }
    this.drawCounters(scene.counters || []);
    if (this.auto && this.fitKey !== this.fitKeyNow()) this.fitShips();
  }

  get tilt() {
    return this.threeD ? TILT : 1;
  }

  /**
   * Where a hex at an altitude is drawn, in SVG units. Every piece is placed through here, so the
   * flat and the 3-D view differ in this one place (and in hexAt, its inverse on the plane).
   */
  project(hexText, altitude = 0) {
    const { x, y } = centre(hexText);
    if (!this.threeD) return { x, y };
    return { x, y: y * TILT - (altitude || 0) * LIFT };
  }

  /** Switch between the flat map and the tilted 3-D view, looking at the same place. */
  setThreeD(on) {
    on = Boolean(on);
    if (on === this.threeD) return;
    this.reframe(() => {
      this.threeD = on;
      this.svg.dataset.view = on ? "3d" : "flat";
      if (on) this.plane.setAttribute("transform", `scale(1,${TILT})`);
      else this.plane.removeAttribute("transform");
      this.updateBounds();
      this.drawCounters(this.counters);
      this.ghost(...this.ghostArgs);
    });
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
    const focus = v ? { x: v.x + v.w / 2, y: (v.y + v.h / 2) / this.tilt } : null;
    change();
    if (!v) return;
    if (this.auto) {
      this.fitShips();
    } else if (whole) {
      this.fitBoard();
    } else {
      v.x = focus.x - v.w / 2;
      v.y = focus.y * this.tilt - v.h / 2;
      this.applyView();
    }
  }

  /** The area panning may show: the board, and in 3-D also the room above and below it that pieces use. */
  updateBounds() {
    const p = this.planeBounds;
    if (!p) return;
    if (!this.threeD) {
      this.bounds = { ...p };
      return;
    }
    // Room for a whole counter (at its largest) beyond the highest and the lowest position.
    const margin = SIZE * 1.6;
    let top = p.y * TILT;
    let bottom = (p.y + p.h) * TILT;
    for (const r of this.raised) {
      const { y } = this.project(r.hex, r.altitude);
      top = Math.min(top, y - margin);
      bottom = Math.max(bottom, y + margin);
    }
    this.bounds = { x: p.x, y: top, w: p.w, h: bottom - top };
  }

  drawBoard(map) {
    const [c0, r0, c1, r1] = map.extent || [0, 0, 9, 9];
    for (const name of ["grid", "terrain", "sections"]) this.layers[name].replaceChildren();
    // One path for the whole grid keeps big maps cheap to draw.
    let d = "";
    for (let c = c0; c <= c1; c++) {
      for (let r = r0; r <= r1; r++) {
        const { x, y } = centre(`${c},${r}`);
        const pts = corners(x, y);
        d += `M${pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join("L")}Z`;
      }
    }
    el("path", { d, class: "hex-grid" }, this.layers.grid);
    // A light coordinate every few hexes helps players read positions without clutter.
    for (let c = c0; c <= c1; c++) {
      for (let r = r0; r <= r1; r++) {
        if (c % 5 === 0 && r % 5 === 0) {
          const { x, y } = centre(`${c},${r}`);
          const t = el("text", { x, y: y + SIZE * 0.62, class: "hex-coord" }, this.layers.grid);
          t.textContent = `${c},${r}`;
        }
      }
    }
    for (const t of map.terrain || []) {
      const kind = String(t.kind || "terrain");
      const poly = el(
        "polygon",
        { points: hexPoints(t.hex), class: `terrain terrain-${kind.replace(/[^a-z0-9-]/gi, "")}`, "data-hex": t.hex },
        this.layers.terrain,
      );
      const title = el("title", {}, poly);
      title.textContent = `${t.hex}: ${TERRAIN_LABELS[kind] || kind}`;
      if (kind.includes("asteroid") || kind === "blocking") {
        const { x, y } = centre(t.hex);
        el("circle", { cx: x - 4, cy: y - 3, r: 4, class: "rock" }, this.layers.terrain);
        el("circle", { cx: x + 5, cy: y + 4, r: 3, class: "rock" }, this.layers.terrain);
      } else if (kind.includes("dense") || kind === "planet") {
        const { x, y } = centre(t.hex);
        el("circle", { cx: x, cy: y, r: SIZE * 0.55, class: "dense" }, this.layers.terrain);
      }
    }
    const sections = map.sections || [];
    for (const s of sections) {
      if (sections.length < 2 && s.name === "map") continue;
      // Boundaries run midway between neighbouring columns and rows, so sections tile exactly.
      const x0 = s.col * 1.5 * SIZE - 0.75 * SIZE;
      const x1 = (s.col + s.width - 1) * 1.5 * SIZE + 0.75 * SIZE;
      const y0 = s.row * H - H / 4;
      const y1 = (s.row + s.height) * H - H / 4;
      el("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "section", "data-section": s.name }, this.layers.sections);
      const label = el("text", { x: x0 + 6, y: y0 + 22, class: "section-label" }, this.layers.sections);
      label.textContent = s.name;
    }
    // The playing area's edge.
    const tl = centre(`${c0},${r0}`);
    const br = centre(`${c1},${r1}`);
    this.planeBounds = { x: tl.x - SIZE * 2, y: tl.y - H * 1.5, w: br.x - tl.x + SIZE * 4, h: br.y - tl.y + H * 3 };
    el("rect", { x: tl.x - SIZE, y: tl.y - H / 2, width: br.x - tl.x + 2 * SIZE, height: br.y - tl.y + H * 1.5, class: "map-edge" }, this.layers.sections);
    this.updateBounds();
    this.fitShips();
  }

  /**
   * What the default view is fitted to, as sets of SVG points, widest first: the ships in play,
   * the viewer's own, the focused ship alone; each with its vector markers, the ends of its legal
   * plots (the reachable area shaded while plotting) and the ships it may fire at now.
   */
  fitSets() {
    const scene = this.fitScene || { counters: [], viewer: [], move_options: {}, fire_options: {} };
    const active = scene.counters.filter((c) => !c.status || c.status === "active");
    const live = active.length ? active : scene.counters;
    const withTargets = (list) => {
      const ids = new Set(list.map((c) => c.id));
      for (const c of list) for (const o of scene.fire_options[c.id] || []) ids.add(o.target);
      return live.filter((c) => ids.has(c.id));
    };
    const own = withTargets(live.filter((c) => scene.viewer.includes(c.side)));
    const focusId = this.focus();
    const focused = withTargets(live.filter((c) => c.id === focusId));
    const points = (list) =>
      list.flatMap((c) => [
        this.project(c.hex, c.altitude),
        ...(this.threeD && c.altitude ? [this.project(c.hex, 0)] : []),
        ...(c.markers || []).map((m) => this.project(m, 0)),
        ...(scene.move_options[c.id] || []).flatMap((o) => {
          const end = o.end || (o.path || [])[(o.path || []).length - 1];
          return end ? [this.project(end.hex, end.altitude)] : [];
        }),
      ]);
    const sets = [points(live)];
    if (own.length && own.length < live.length) sets.push(points(own));
    if (focused.length && focused.length < (own.length || live.length)) sets.push(points(focused));
    return sets.filter((set) => set.length);
  }

  fitKeyNow() {
    return JSON.stringify([this.threeD, this.fitSets()]);
  }

  /**
   * The default view: the whole board when it can be shown with readable hexes, else every ship
   * in play (each as close as it fits, up to MAX_FIT_SCALE), else the viewer's own ships, else
   * the focused one, centred at the smallest readable zoom; a margin is left all round. Starts
   * following the ships again.
   */
  fitShips() {
    this.auto = true;
    if (!this.bounds) return;
    this.fitKey = this.fitKeyNow();
    const { width, height } = this.screenSize();
    const boxes = this.fitSets().map((points) => {
      const xs = points.map((p) => p.x);
      const ys = points.map((p) => p.y);
      const x = Math.min(...xs) - FIT_MARGIN;
      const y = Math.min(...ys) - FIT_MARGIN;
      return { x, y, w: Math.max(...xs) + FIT_MARGIN - x, h: Math.max(...ys) + FIT_MARGIN - y };
    });
    const framed = (b, k) => {
      const cx = b.x + b.w / 2;
      const cy = b.y + b.h / 2;
      return { x: cx - width / k / 2, y: cy - height / k / 2, w: width / k, h: height / k };
    };
    const scaleFor = (b) => Math.min(width / b.w, height / b.h);
    // The board, or every ship, as close as they fit (up to MAX_FIT_SCALE).
    const whole = [this.bounds, boxes[0]].find((b) => b && scaleFor(b) >= MIN_FIT_SCALE);
    // Otherwise the viewer's own ships if they fit, else the focused one, in the middle, with as
    // much of the board around them as readable hexes allow.
    const some = boxes.slice(1).find((b) => scaleFor(b) >= MIN_FIT_SCALE) || boxes[boxes.length - 1];
    this.view = whole
      ? framed(whole, Math.min(scaleFor(whole), MAX_FIT_SCALE))
      : framed(some || this.bounds, MIN_FIT_SCALE);
    this.applyView();
  }

  /** The whole board, however small its hexes get (the player asked for it: no more following). */
  fitBoard() {
    if (!this.bounds) return;
    this.auto = false;
    const { width, height } = this.screenSize();
    const b = this.bounds;
    const k = Math.min(width / b.w, height / b.h);
    this.view = { x: b.x + b.w / 2 - width / k / 2, y: b.y + b.h / 2 - height / k / 2, w: width / k, h: height / k };
    this.applyView();
  }

  /** The "0" key and the fit button: the ships in play. */
  fit() {
    this.fitShips();
  }

  applyView() {
    const v = this.view;
    // Keep the map on screen: pan no further than its edge, and centre it when zoomed out past it.
    const b = this.bounds;
    if (b) {
      v.x = v.w >= b.w ? b.x - (v.w - b.w) / 2 : Math.min(Math.max(v.x, b.x), b.x + b.w - v.w);
      v.y = v.h >= b.h ? b.y - (v.h - b.h) / 2 : Math.min(Math.max(v.y, b.y), b.y + b.h - v.h);
    }
    this.svg.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
    const { width, height } = this.screenSize();
    this.scale = Math.min(width / v.w, height / v.h);
    this.svg.dataset.scale = this.scale.toFixed(3);
    this.svg.dataset.follow = String(this.auto);
    this.rescalePieces();
  }

  /**
   * Zoomed out over a big map, hexes get too small to read a counter; pieces then grow
   * (up to twice a hex) so labels and facing arrows stay legible at any zoom.
   */
  rescalePieces() {
    const v = this.view;
    const width = this.svg.clientWidth || 800;
    const height = this.svg.clientHeight || 600;
    const pxPerUnit = Math.min(width / v.w, height / v.h);
    const scale = Math.min(Math.max(1, 1.05 / pxPerUnit), 2);
    if (Math.abs(scale - (this.pieceScale || 1)) < 0.01 && this.pieceScaleDone) return;
    this.pieceScale = scale;
    this.pieceScaleDone = true;
    for (const g of this.svg.querySelectorAll(".counter, .vector-marker, .ghost-counter")) {
      g.setAttribute("transform", `translate(${g.dataset.x},${g.dataset.y}) scale(${scale.toFixed(3)})`);
    }
  }

  placed(x, y) {
    const scale = (this.pieceScale || 1).toFixed(3);
    return { "data-x": x.toFixed(1), "data-y": y.toFixed(1), transform: `translate(${x.toFixed(1)},${y.toFixed(1)}) scale(${scale})` };
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
    const c = id ? this.counters.find((x) => x.id === id) : null;
    if (c) {
      const { x, y } = this.project(c.hex, c.altitude);
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
    const { x, y } = this.project(hexText, altitude);
    this.view.x = x - this.view.w / 2;
    this.view.y = y - this.view.h / 2;
    this.applyView();
  }

  /** Bring a hex into view (keeping the zoom) when it lies outside the middle of the view. */
  ensureVisible(hexText, altitude = 0) {
    if (!this.view) return;
    const { x, y } = this.project(hexText, altitude);
    const v = this.view;
    const mx = v.w * 0.1;
    const my = v.h * 0.1;
    if (x < v.x + mx || x > v.x + v.w - mx || y < v.y + my || y > v.y + v.h - my) this.centreOn(hexText, altitude);
  }

  toSvg(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = pt.matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** The plane's hex under an SVG point (round to the nearest centre among nearby candidates). */
  hexAt(x, svgY) {
    // Clicks land on the plane, so undo its tilt (altitude never applies to the plane itself).
    const y = svgY / this.tilt;
    const approxCol = Math.round(x / (1.5 * SIZE));
    let best = null;
    for (let c = approxCol - 1; c <= approxCol + 1; c++) {
      const odd = ((c % 2) + 2) % 2;
      const r = Math.round((y - (odd ? H / 2 : 0)) / H);
      for (let rr = r - 1; rr <= r + 1; rr++) {
        const p = centre(`${c},${rr}`);
        const d = (p.x - x) ** 2 + (p.y - y) ** 2;
        if (!best || d < best.d) best = { d, hex: `${c},${rr}` };
      }
    }
    return best ? best.hex : null;
  }

  installPanZoom() {
    const svg = this.svg;
    let drag = null;
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, moved: false, id: ev.pointerId };
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!drag || !this.view) return;
      const dx = ev.clientX - drag.x;
      const dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      if (!drag.moved) {
        drag.moved = true;
        this.auto = false;
        svg.setPointerCapture(drag.id);
        svg.classList.add("dragging");
      }
      const scale = this.view.w / svg.clientWidth;
      this.pan(-dx * scale, -dy * scale);
      drag.x = ev.clientX;
      drag.y = ev.clientY;
    });
    const end = (ev) => {
      if (!drag) return;
      const wasDrag = drag.moved;
      drag = null;
      svg.classList.remove("dragging");
      if (wasDrag || ev.type !== "pointerup") return;
      const target = ev.target.closest ? ev.target.closest(".counter") : null;
      if (target) {
        this.onCounterClick(target.dataset.id, ev);
        return;
      }
      const p = this.toSvg(ev.clientX, ev.clientY);
      const hex = this.hexAt(p.x, p.y);
      if (hex) this.onHexClick(hex, ev);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener(
      "wheel",
      (ev) => {
        ev.preventDefault();
        this.auto = false;
        const p = this.toSvg(ev.clientX, ev.clientY);
        this.zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, p.x, p.y);
      },
      { passive: false },
    );
    svg.addEventListener("keydown", (ev) => {
      if (!this.view) return;
      const step = this.view.w / 10;
      const panBy = (dx, dy) => {
        this.auto = false;
        this.pan(dx, dy);
      };
      const keys = {
        ArrowLeft: () => panBy(-step, 0),
        ArrowRight: () => panBy(step, 0),
        ArrowUp: () => panBy(0, -step),
        ArrowDown: () => panBy(0, step),
        "+": () => this.zoomStep(1.25),
        "=": () => this.zoomStep(1.25),
        "-": () => this.zoomStep(1 / 1.25),
        0: () => this.fitShips(),
        m: () => this.fitBoard(),
        M: () => this.fitBoard(),
        3: () => this.onViewKey(),
      };
      const fn = keys[ev.key];
      if (fn && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
        ev.preventDefault();
        fn();
      }
    });
  }

  colour(side) {
    return this.sideColours[side] || "#888";
  }

  drawCounters(counters) {
    this.counters = counters;
    const layer = this.layers.counters;
    const markers = this.layers.markers;
    layer.replaceChildren();
    markers.replaceChildren();
    this.layers.shadows.replaceChildren();
    // Sort so that live ships draw above wrecks sharing a hex.
    const byStatus = (a, b) => (a.status === "active") - (b.status === "active");
    let sorted = [...counters].sort(byStatus);
    if (this.threeD) {
      // Painter's order: the far side of the plane first, so nearer counters and stalks cover it.
      const depth = (c) => this.project(c.hex, 0).y;
      sorted = sorted.sort((a, b) => depth(a) - depth(b) || (a.altitude || 0) - (b.altitude || 0) || byStatus(a, b));
    }
    const perStack = {};
    for (const c of sorted) {
      // Counters at one hex but different altitudes do not overlap in 3-D, so only a true stack fans out.
      const stack = this.threeD ? `${c.hex}@${c.altitude || 0}` : c.hex;
      const n = (perStack[stack] = (perStack[stack] || 0) + 1) - 1;
      // Stacked counters fan out a little so every one stays clickable.
      const fan = (p) => ({ x: p.x + n * 5, y: p.y - n * 5 });
      const { x: ox, y: oy } = fan(this.project(c.hex, c.altitude));
      const { x: bx, y: by } = fan(this.project(c.hex, 0));
      const colour = this.colour(c.side);
      if (this.threeD) this.stand(c, { x: bx, y: by }, { x: ox, y: oy }, colour);
      for (const m of c.markers || []) {
        // Vector markers have no altitude: they and their lines lie on the plane.
        const mp = this.project(m, 0);
        el("line", { x1: bx, y1: by, x2: mp.x, y2: mp.y, class: "vector-line", stroke: colour }, markers);
        const mk = el(
          "g",
          { class: "vector-marker", "data-ship": c.id, "data-hex": m, ...this.placed(mp.x, mp.y) },
          markers,
        );
        el("polygon", { points: hexPoints("0,0", SIZE * 0.55), class: "marker-shape", stroke: colour }, mk);
        const lbl = el("text", { x: 0, y: 4, class: "marker-label", fill: colour }, mk);
        lbl.textContent = c.label || c.id;
        const t = el("title", {}, mk);
        t.textContent = `${c.id}'s vector marker at ${m}`;
      }
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
    if (c.altitude && this.threeD) {
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

  /** Shade hexes in a layer ("reach" or "arc"); `hexes` is an array of "col,row". */
  shade(layerName, hexes, cls) {
    const layer = this.layers[layerName];
    layer.replaceChildren();
    for (const h of new Set(hexes || [])) {
      el("polygon", { points: hexPoints(h, SIZE * 0.94), class: cls, "data-hex": h }, layer);
    }
  }

  /** Ring the counters a chosen weapon may fire at (kept across redraws until changed). */
  mark(ids) {
    this.marked = new Set(ids || []);
    for (const g of this.layers.counters.querySelectorAll(".counter")) {
      g.classList.toggle("targetable", this.marked.has(g.dataset.id));
    }
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
    const g = el("g", { id: "ghost", class: "ghost", "data-ship": counter.id, "data-end": end.hex, "data-text": option.text }, layer);
    const at = (p) => this.project(p.hex, p.altitude);
    const pointsOf = (list) => list.map((c) => `${c.x.toFixed(1)},${c.y.toFixed(1)}`).join(" ");
    const climbs = this.threeD && path.some((p) => p.altitude);
    // A climbing path also gets its trace on the plane, so the hexes it crosses stay readable.
    if (climbs && path.length > 1) {
      el("polyline", { points: pointsOf(path.map((p) => this.project(p.hex, 0))), class: "ghost-trace", stroke: colour }, g);
    }
    if (path.length > 1) el("polyline", { points: pointsOf(path.map(at)), class: "ghost-path", stroke: colour }, g);
    for (const p of path.slice(1, -1)) {
      const c = at(p);
      el("circle", { cx: c.x, cy: c.y, r: 3, class: "ghost-step", fill: colour }, g);
    }
    const e = at(end);
    if (this.threeD) {
      this.stand({ altitude: end.altitude }, this.project(end.hex, 0), e, colour, { ghost: true, shadowLayer: g, stalkLayer: g });
    }
    const cg = el("g", { class: "ghost-counter", "data-altitude": end.altitude || 0, ...this.placed(e.x, e.y) }, g);
    this.counterShape(cg, { ...counter, facing: option.facing || counter.facing, altitude: end.altitude }, colour, true);
  }
}
