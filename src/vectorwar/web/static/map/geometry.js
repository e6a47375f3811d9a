// Hex geometry shared by every part of the map: flat-topped hexes in odd-q offset "col,row" (odd
// columns half a hex lower), directions A-F clockwise with A at the top; the SVG element helper;
// and the projection that places a hex at an altitude, flat or tilted into the 3-D view.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SIZE = 20; // centre to corner, in SVG units
export const H = Math.sqrt(3) * SIZE;
// The 3-D view is an oblique projection: the plane keeps its width and loses half its depth, which
// reads as a table seen from above at an angle without hiding anything behind anything else.
export const TILT = 0.5;
// One altitude level is about a hex tall, so a climb of N levels looks like N hexes of height;
// a little less keeps the highest counters of a scenario (AV:T goes to 6 or so) near the map.
export const LIFT = 0.8 * H;

export function parseHex(text) {
  const [c, r] = String(text).split(",").map((s) => parseInt(s.trim(), 10));
  return { col: c, row: r };
}

/**
 * Hexes between two hexes, counted the way the engine does (vectorwar.hexes: odd columns half a
 * hex lower, so a column's rows shift by half its index in axial coordinates).
 */
export function hexDistance(a, b) {
  const axial = (text) => {
    const { col, row } = parseHex(text);
    return { q: col, r: row - (col - (col & 1)) / 2 };
  };
  const p = axial(a);
  const q = axial(b);
  const dq = p.q - q.q;
  const dr = p.r - q.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

export function centre(hexText) {
  const { col, row } = parseHex(hexText);
  const odd = ((col % 2) + 2) % 2;
  return { x: col * 1.5 * SIZE, y: row * H + (odd ? H / 2 : 0) };
}

export function corners(cx, cy, size = SIZE) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i);
    pts.push([cx + size * Math.cos(a), cy + size * Math.sin(a)]);
  }
  return pts;
}

export function hexPoints(hexText, size = SIZE) {
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

/** An SVG element with attributes (null and undefined left out), appended to `parent` if given. */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Every position off the plane in a scene (counters and each step of a legal plot): what fitting
 * the 3-D view must leave room for, above and below the board.
 */
export function raisedPositions(scene) {
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

/**
 * Flat or tilted: every piece is placed through `project`, so the flat and the 3-D view differ in
 * this one place (and in `hexAt`, its inverse on the plane).
 */
export class Projection {
  constructor() {
    this.threeD = false;
  }

  get tilt() {
    return this.threeD ? TILT : 1;
  }

  /** Where a hex at an altitude is drawn, in SVG units. */
  project(hexText, altitude = 0) {
    const { x, y } = centre(hexText);
    if (!this.threeD) return { x, y };
    return { x, y: y * TILT - (altitude || 0) * LIFT };
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
}
