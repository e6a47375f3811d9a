// AV:T's AVID drawn as the paper Ship Control Card lays it out: a top-down view of the ball round
// the ship, the purple window in the middle, then the green, blue and amber rings, with the vector
// arrows A-F round the outside and up and down beside it. Everything in it comes from the scene's
// `diagrams` (systems/avt/diagrams.py): which window each symbol, target marker, "I" and pivot stop
// is in is the rule system's answer; this module only places windows on the card.
//
// A window below the map's plane lies under the one above it on the paper, so both share a place
// on the card: each has its own group (`g.avid-window[data-window]`), and whatever is below is
// circled, as the tutorial circles it (A5.162, A5.333). A red card turns the whole card so that D
// is at the top (A5.42); words stay upright.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element: `s(tag, attrs, ...children)`, children being nodes or text. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const f = (x) => Math.round(x * 10) / 10;

// Ring radii on the card (SVG units): purple disc, then green, blue and amber bands.
const RING = [
  [0, 26],
  [26, 60],
  [60, 98],
  [98, 138],
];
const ARROW = { inner: 146, split: 170, outer: 196 };

/** The card angle (degrees clockwise from the top) of a ray, on a blue card or a red one. */
function angleOf(ray, red) {
  return ray * 30 + (red ? 180 : 0);
}

function polar(radius, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [radius * Math.sin(a), -radius * Math.cos(a)];
}

/** An annular sector from angle a0 to a1 between radii r0 and r1. */
function sector(r0, r1, a0, a1) {
  const [x0, y0] = polar(r1, a0);
  const [x1, y1] = polar(r1, a1);
  const [x2, y2] = polar(r0, a1);
  const [x3, y3] = polar(r0, a0);
  const large = a1 - a0 > 180 ? 1 : 0;
  return `M${f(x0)},${f(y0)} A${r1},${r1} 0 ${large} 1 ${f(x1)},${f(y1)} L${f(x2)},${f(y2)} A${r0},${r0} 0 ${large} 0 ${f(x3)},${f(y3)} Z`;
}

/** Where a window is on the card: its outline, centre and how much room it has across. */
function place(window, red) {
  const ring = Math.abs(window.level);
  const [r0, r1] = RING[3 - ring];
  if (ring === 3) return { path: `M0,${-r1} A${r1},${r1} 0 1 1 0,${r1} A${r1},${r1} 0 1 1 0,${-r1} Z`, cx: 0, cy: 0, across: 40, radial: 0, angle: 0 };
  const half = ring === 2 ? 30 : 15;
  const a = angleOf(window.ray, red);
  const mid = (r0 + r1) / 2;
  const [cx, cy] = polar(mid, a);
  return { path: sector(r0, r1, a - half, a + half), cx, cy, across: (2 * Math.PI * mid * 2 * half) / 360, radial: r1 - r0, angle: a };
}

/** Positions for `n` marks in a window: rows of as many as fit across, centred on the window. */
function spots(p, n) {
  const step = 15;
  const perRow = Math.max(1, Math.min(n, Math.floor((p.across - 4) / step)));
  const rows = Math.ceil(n / perRow);
  const out = [];
  // Along the ring (tangent) and outward (radial) unit vectors at the window's centre.
  const t = polar(1, p.angle + 90);
  const r = polar(1, p.angle);
  for (let i = 0; i < n; i += 1) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, n - row * perRow);
    const u = ((i % perRow) - (inRow - 1) / 2) * step;
    const v = ((rows - 1) / 2 - row) * 14;
    out.push([p.cx + u * t[0] + v * r[0], p.cy + u * t[1] + v * r[1]]);
  }
  return out;
}

const SYMBOL_NAMES = { nose: "Nose", top: "Top", bottom: "Bottom", aft: "Aft", port: "Port", starboard: "Starboard" };

/** One orientation symbol in the paper's shapes: triangle, star, anchor, semicircle, and P / S. */
function symbolShape(name, x, y, outward) {
  if (name === "nose") {
    return s("polygon", { points: "0,-7 6,5 -6,5", transform: `translate(${f(x)},${f(y)}) rotate(${f(outward)})` });
  }
  if (name === "aft") {
    return s("path", { d: "M-6,2 A6,6 0 0 1 6,2 Z", transform: `translate(${f(x)},${f(y)}) rotate(${f(outward)})` });
  }
  if (name === "top") {
    const pts = [];
    for (let i = 0; i < 10; i += 1) {
      const [px, py] = polar(i % 2 ? 3 : 7, i * 36);
      pts.push(`${f(px + x)},${f(py + y)}`);
    }
    return s("polygon", { points: pts.join(" ") });
  }
  const glyph = { bottom: "⚓", port: "P", starboard: "S" }[name];
  return s("text", { x: f(x), y: f(y), "text-anchor": "middle", "dominant-baseline": "central" }, glyph);
}

/** The marks of one ship's AVID, per window: [{kind, ...}] in the order they are drawn. */
function marksByWindow(ship) {
  const marks = new Map();
  const add = (window, mark) => {
    if (!window) return;
    if (!marks.has(window)) marks.set(window, []);
    marks.get(window).push(mark);
  };
  for (const sym of ship.symbols) for (const w of sym.windows) add(w, { kind: "symbol", name: sym.name, label: sym.label });
  for (const t of ship.targets) if (t.window) add(t.window, { kind: "target", target: t });
  if (ship.incoming) add(ship.incoming, { kind: "incoming" });
  if (ship.turning) {
    for (const stop of ship.turning.stops) add(stop.window, { kind: "stop", stop, turning: ship.turning });
  }
  return marks;
}

function markNode(mark, x, y, p, below) {
  const ring = below ? s("circle", { class: "avid-circle", cx: f(x), cy: f(y), r: 7.5 }) : null;
  if (mark.kind === "symbol") {
    const where = below ? " (below the map: circled)" : "";
    return s(
      "g",
      { class: `avid-symbol symbol-${mark.name}`, dataset: { symbol: mark.name } },
      s("title", {}, `${SYMBOL_NAMES[mark.name]}${where}`),
      ring,
      symbolShape(mark.name, x, y, p.angle),
    );
  }
  if (mark.kind === "target") {
    const t = mark.target;
    return s(
      "g",
      { class: `avid-target${t.circled ? " circled" : ""}`, tabindex: 0, dataset: { target: t.id, range: t.range }, "aria-label": `${t.id}: ${t.text}` },
      s("title", {}, `${t.id}: ${t.text}`),
      t.circled ? s("circle", { class: "avid-circle", cx: f(x), cy: f(y), r: 7.5 }) : null,
      s("text", { x: f(x), y: f(y), "text-anchor": "middle", "dominant-baseline": "central" }, t.range),
    );
  }
  if (mark.kind === "incoming") {
    return s(
      "g",
      { class: "avid-incoming" },
      s("title", {}, 'Incoming damage "I" (A5.42)'),
      ring,
      s("text", { x: f(x), y: f(y), "text-anchor": "middle", "dominant-baseline": "central" }, "I"),
    );
  }
  const { stop, turning } = mark;
  const what = turning.kind === "pivot" ? "Nose" : "Top";
  return s(
    "g",
    { class: `avid-turn-stop${stop.passed ? " passed" : ""}`, dataset: { segment: stop.segment, turn: stop.turn } },
    s("title", {}, `${turning.kind} (${turning.order}): the ${what} reaches this window in turn ${stop.turn} segment ${stop.segment}`),
    ring,
    s("text", { x: f(x), y: f(y), "text-anchor": "middle", "dominant-baseline": "central" }, stop.segment),
  );
}

/** The six vector arrows round the card and up and down beside it: value in the white part, dots in the gray. */
function vectorArrows(ship, red) {
  const out = [];
  const dots = (n, at) => {
    const shown = Math.min(n, 8);
    return [...Array(shown).keys()].map((i) => {
      const [x, y] = at(i, shown);
      return s("circle", { class: "avid-dot", cx: f(x), cy: f(y), r: 2 });
    });
  };
  for (const v of ship.vectors) {
    const value = v.value || "";
    const label = `${v.arrow}: vector ${v.value}${v.dots ? `, ${v.dots} dots this burn` : ""}`;
    if (v.arrow === "up" || v.arrow === "down") {
      const sign = v.arrow === "up" ? -1 : 1;
      const x = 226;
      const y0 = sign * 40;
      const y1 = sign * 150;
      out.push(
        s(
          "g",
          { class: "avid-arrow vertical", dataset: { arrow: v.arrow, value: v.value, dots: v.dots } },
          s("title", {}, label),
          s("path", { class: "arrow-gray", d: `M${x - 11},${y0} L${x + 11},${y0} L${x + 11},${sign * 95} L${x - 11},${sign * 95} Z` }),
          s("path", { class: "arrow-white", d: `M${x - 11},${sign * 95} L${x + 11},${sign * 95} L${x + 11},${sign * 130} L${x},${y1} L${x - 11},${sign * 130} Z` }),
          s("text", { class: "arrow-letter", x, y: sign * 166, "text-anchor": "middle", "dominant-baseline": "central" }, v.arrow === "up" ? "+" : "−"),
          s("text", { class: "arrow-value", x, y: sign * 115, "text-anchor": "middle", "dominant-baseline": "central" }, value),
          dots(v.dots, (i) => [x - 5 + (i % 2) * 10, y0 + sign * (8 + Math.floor(i / 2) * 10)]),
        ),
      );
      continue;
    }
    const a = angleOf("ABCDEF".indexOf(v.arrow) * 2, red);
    const w = 12;
    const corners = (r0, r1, tip) => {
      const [ax, ay] = polar(r0, a);
      const [bx, by] = polar(r1, a);
      const [tx, ty] = polar(1, a + 90);
      const pts = [
        [ax + w * tx, ay + w * ty],
        [bx + w * tx, by + w * ty],
        ...(tip ? [polar(r1 + 14, a)] : []),
        [bx - w * tx, by - w * ty],
        [ax - w * tx, ay - w * ty],
      ];
      return pts.map(([x, y]) => `${f(x)},${f(y)}`).join(" ");
    };
    const [vx, vy] = polar((ARROW.split + ARROW.outer) / 2, a);
    const [lx, ly] = polar(ARROW.outer + 4, a);
    out.push(
      s(
        "g",
        { class: "avid-arrow", dataset: { arrow: v.arrow, value: v.value, dots: v.dots } },
        s("title", {}, label),
        s("polygon", { class: "arrow-gray", points: corners(ARROW.inner, ARROW.split, false) }),
        s("polygon", { class: "arrow-white", points: corners(ARROW.split, ARROW.outer - 10, true) }),
        s("text", { class: "arrow-letter", x: f(lx), y: f(ly), "text-anchor": "middle", "dominant-baseline": "central" }, v.arrow),
        s("text", { class: "arrow-value", x: f(vx), y: f(vy), "text-anchor": "middle", "dominant-baseline": "central" }, value),
        dots(v.dots, (i, n) => {
          const [tx, ty] = polar(1, a + 90);
          const along = ARROW.inner + 6 + Math.floor(i / 2) * 6;
          const [px, py] = polar(along, a);
          const side = n === 1 ? 0 : i % 2 ? 4 : -4;
          return [px + side * tx, py + side * ty];
        }),
      ),
    );
  }
  return out;
}

/** The pivot or roll arrow: from the window it leaves through each window it reaches. */
function turnArrow(ship, centres) {
  const turning = ship.turning;
  if (!turning) return null;
  // The arrow runs a little inside the windows' centres, so it never covers the segment numbers.
  const inside = ([x, y]) => {
    const r = Math.hypot(x, y);
    return r > 20 ? [(x * (r - 11)) / r, (y * (r - 11)) / r] : [x, y];
  };
  const points = [turning.from, ...turning.stops.map((x) => x.window)]
    .map((w) => centres.get(w))
    .filter(Boolean)
    .map(inside);
  const unique = points.filter((p, i) => i === 0 || p[0] !== points[i - 1][0] || p[1] !== points[i - 1][1]);
  if (unique.length < 2) return null;
  return s("polyline", {
    class: `avid-turn-arrow ${turning.kind}`,
    points: unique.map(([x, y]) => `${f(x)},${f(y)}`).join(" "),
    "marker-end": "url(#avid-arrowhead)",
  });
}

/**
 * The AVID of `ship` (one entry of `diagrams.ships`) as an SVG element with id `avid-card`.
 * `windows` is `diagrams.windows`; `red` draws a red card, D at the top.
 */
export function drawAvid(diagrams, ship, { red = false, onTarget = null } = {}) {
  const marks = marksByWindow(ship);
  const cells = new Map();
  for (const w of diagrams.windows) {
    const key = `${Math.abs(w.level)} ${w.ray}`;
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push(w);
  }
  const windowLayer = s("g", { class: "avid-windows" });
  const markLayer = s("g", { class: "avid-marks" });
  const centres = new Map();
  const groups = new Map();
  for (const w of diagrams.windows) {
    const p = place(w, red);
    centres.set(w.name, [p.cx, p.cy]);
    const g = s(
      "g",
      {
        class: `avid-window ring-${w.colour} ${w.below ? "lower" : "upper"}`,
        dataset: { window: w.name, level: w.level, ray: w.ray, colour: w.colour },
      },
      s("title", {}, `${w.name}: ${w.colour}${w.level ? (w.below ? ", below the map" : ", above the map") : ""}`),
      s("path", { class: "avid-cell", d: p.path }),
    );
    groups.set(w.name, { g, p });
    // Upper windows are the card's cells; a lower window lies on the same place, drawn only as marks.
    (w.below ? markLayer : windowLayer).append(g);
  }
  // Marks of a window above and of the one below it share the cell, laid out together.
  for (const shared of cells.values()) {
    const all = shared.flatMap((w) => (marks.get(w.name) || []).map((m) => ({ w, m })));
    if (!all.length) continue;
    const p = groups.get(shared[0].name).p;
    spots(p, all.length).forEach(([x, y], i) => {
      const { w, m } = all[i];
      const node = markNode(m, x, y, p, w.below);
      if (m.kind === "target" && onTarget) {
        node.addEventListener("mouseenter", () => onTarget(m.target, "hover"));
        node.addEventListener("focus", () => onTarget(m.target, "hover"));
        node.addEventListener("mouseleave", () => onTarget(null, "hover"));
        node.addEventListener("click", () => onTarget(m.target, "select"));
      }
      groups.get(w.name).g.append(node);
    });
  }
  const title = `AVID of ${ship.ship}, turn ${diagrams.turn} segment ${diagrams.segment}${red ? " (red card: D at the top)" : ""}`;
  return s(
    "svg",
    {
      id: "avid-card",
      // The 2-D option uses the amber ring only (Design Note: 2-D): the others are drawn faded.
      class: `avid-card${red ? " red-card" : ""}${diagrams.three_d ? "" : " flat"}`,
      viewBox: "-214 -214 474 428",
      role: "img",
      "aria-label": title,
      dataset: { ship: ship.ship, turn: diagrams.turn, segment: diagrams.segment, top: red ? "D" : "A" },
    },
    s("title", {}, title),
    s("defs", {}, s("marker", { id: "avid-arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, s("path", { d: "M0,0 L10,5 L0,10 Z" }))),
    s("circle", { class: "avid-rim", cx: 0, cy: 0, r: RING[3][1] + 3 }),
    s("text", { class: "avid-legend", x: -208, y: 184 }, "rings: amber 0°, blue 30°,"),
    s("text", { class: "avid-legend", x: -208, y: 196 }, "green 60°, purple 90°; ○ below"),
    windowLayer,
    vectorArrows(ship, red),
    markLayer,
    turnArrow(ship, centres),
  );
}
