// The SVG hex map: flat-topped hexes in odd-q offset "col,row" (odd columns half a hex lower),
// directions A-F clockwise with A at the top. Draws sections, terrain, counters, vector markers,
// shading (reachable hexes, weapon arcs) and the ghost of a plot; pans and zooms.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SIZE = 20; // centre to corner, in SVG units
const H = Math.sqrt(3) * SIZE;

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
  const i = "ABCDEF".indexOf(String(letter || "").toUpperCase());
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

export class HexMap {
  constructor(svg, { onCounterClick, onHexClick } = {}) {
    this.svg = svg;
    this.onCounterClick = onCounterClick || (() => {});
    this.onHexClick = onHexClick || (() => {});
    this.view = null; // {x, y, w, h}
    this.bounds = null;
    this.extentKey = "";
    this.layers = {};
    for (const name of ["grid", "terrain", "sections", "reach", "arc", "trails", "markers", "ghost", "counters"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this.sideColours = {};
    this.marked = new Set();
    this.installPanZoom();
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        if (!this.view) return;
        this.pieceScaleDone = false;
        this.rescalePieces();
      }).observe(svg);
    }
  }

  /** Draw the board and pieces of a scene; keeps the current pan and zoom if the map is the same. */
  render(scene) {
    this.sideColours = Object.fromEntries((scene.sides || []).map((s) => [s.name, s.colour]));
    const map = scene.map || {};
    const key = JSON.stringify([map.extent, map.sections, map.terrain]);
    if (key !== this.extentKey) {
      this.extentKey = key;
      this.drawBoard(map);
    }
    this.drawCounters(scene.counters || []);
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
    this.bounds = { x: tl.x - SIZE * 2, y: tl.y - H * 1.5, w: br.x - tl.x + SIZE * 4, h: br.y - tl.y + H * 3 };
    el("rect", { x: tl.x - SIZE, y: tl.y - H / 2, width: br.x - tl.x + 2 * SIZE, height: br.y - tl.y + H * 1.5, class: "map-edge" }, this.layers.sections);
    this.fit();
  }

  fit() {
    if (!this.bounds) return;
    this.view = { ...this.bounds };
    this.applyView();
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

  pan(dx, dy) {
    if (!this.view) return;
    this.view.x += dx;
    this.view.y += dy;
    this.applyView();
  }

  /** Centre the view on a hex without changing the zoom. */
  centreOn(hexText) {
    if (!this.view) return;
    const { x, y } = centre(hexText);
    this.view.x = x - this.view.w / 2;
    this.view.y = y - this.view.h / 2;
    this.applyView();
  }

  /** Bring a hex into view (keeping the zoom) when it lies outside the middle of the view. */
  ensureVisible(hexText) {
    if (!this.view) return;
    const { x, y } = centre(hexText);
    const v = this.view;
    const mx = v.w * 0.1;
    const my = v.h * 0.1;
    if (x < v.x + mx || x > v.x + v.w - mx || y < v.y + my || y > v.y + v.h - my) this.centreOn(hexText);
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

  /** The hex under an SVG point (round to the nearest centre among nearby candidates). */
  hexAt(x, y) {
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
        const p = this.toSvg(ev.clientX, ev.clientY);
        this.zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, p.x, p.y);
      },
      { passive: false },
    );
    svg.addEventListener("keydown", (ev) => {
      if (!this.view) return;
      const step = this.view.w / 10;
      const keys = {
        ArrowLeft: () => this.pan(-step, 0),
        ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step),
        ArrowDown: () => this.pan(0, step),
        "+": () => this.zoom(1.25),
        "=": () => this.zoom(1.25),
        "-": () => this.zoom(1 / 1.25),
        0: () => this.fit(),
      };
      const fn = keys[ev.key];
      if (fn) {
        ev.preventDefault();
        fn();
      }
    });
  }

  colour(side) {
    return this.sideColours[side] || "#888";
  }

  drawCounters(counters) {
    const layer = this.layers.counters;
    const markers = this.layers.markers;
    layer.replaceChildren();
    markers.replaceChildren();
    // Sort so that live ships draw above wrecks sharing a hex.
    const sorted = [...counters].sort((a, b) => (a.status === "active") - (b.status === "active"));
    const perHex = {};
    for (const c of sorted) {
      const n = (perHex[c.hex] = (perHex[c.hex] || 0) + 1) - 1;
      const { x, y } = centre(c.hex);
      // Stacked counters fan out a little so every one stays clickable.
      const ox = x + n * 5;
      const oy = y - n * 5;
      const colour = this.colour(c.side);
      for (const m of c.markers || []) {
        const mp = centre(m);
        el("line", { x1: ox, y1: oy, x2: mp.x, y2: mp.y, class: "vector-line", stroke: colour }, markers);
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
          ...this.placed(ox, oy),
        },
        layer,
      );
      this.counterShape(g, c, colour);
    }
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
    if (c.altitude) {
      const alt = el("text", { x: s - 2, y: s * 0.78, class: "counter-alt" }, g);
      alt.textContent = c.altitude > 0 ? `+${c.altitude}` : `${c.altitude}`;
    }
    if (!ghost && c.status && c.status !== "active") {
      el("line", { x1: -s, y1: -s * 0.8, x2: s, y2: s * 0.8, class: "wreck" }, g);
      el("line", { x1: -s, y1: s * 0.8, x2: s, y2: -s * 0.8, class: "wreck" }, g);
    }
    if (!ghost) {
      const title = el("title", {}, g);
      title.textContent = `${c.id} (${c.side}) at ${c.hex}${c.facing ? `, facing ${c.facing}` : ""}${
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

  /** Draw the ghost of one plot (null clears it). */
  ghost(counter, option, colour) {
    const layer = this.layers.ghost;
    layer.replaceChildren();
    if (!counter || !option) return;
    const path = option.path || [];
    const end = option.end || path[path.length - 1];
    if (!end) return;
    const g = el("g", { id: "ghost", class: "ghost", "data-ship": counter.id, "data-end": end.hex, "data-text": option.text }, layer);
    const pts = path.map((p) => {
      const c = centre(p.hex);
      return `${c.x.toFixed(1)},${c.y.toFixed(1)}`;
    });
    if (pts.length > 1) el("polyline", { points: pts.join(" "), class: "ghost-path", stroke: colour }, g);
    for (const p of path.slice(1, -1)) {
      const c = centre(p.hex);
      el("circle", { cx: c.x, cy: c.y, r: 3, class: "ghost-step", fill: colour }, g);
    }
    const e = centre(end.hex);
    const cg = el("g", { class: "ghost-counter", ...this.placed(e.x, e.y) }, g);
    this.counterShape(cg, { ...counter, facing: option.facing || counter.facing, altitude: end.altitude }, colour, true);
  }
}
