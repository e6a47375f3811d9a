// Choosing the default view: what it is fitted to (the ships, the viewer's own, the focused one,
// each with its markers, plot ends and targets) and the view that frames them. Pure functions of
// the scene, the projection and the screen size, so the viewport only applies what they answer.

import { SIZE } from "./geometry.js";

// The default view: never smaller than this many screen pixels per SVG unit, so a hex is at least
// 34 px corner to corner (29 px flat to flat) and a counter stays readable; and never bigger than
// MAX_FIT_SCALE just because two ships are close together.
export const MIN_FIT_SCALE = 0.85;
export const MAX_FIT_SCALE = 1.6;
// Every ship in play is worth smaller hexes: down to this scale the opening view still shows them
// all (a Dogfight's sides start 49 columns apart, wider than a 1366 px laptop shows at
// MIN_FIT_SCALE). Counters stay readable there, as pieces.js draws them larger when zoomed out.
export const MIN_ALL_SHIPS_SCALE = 0.5;
// Past that, every ship is still framed down to this scale (an AV:T duel whose ships fly apart
// off the printed sheet): pieces are drawn at MAX_PIECE_SCALE, so each stays a visible counter.
export const MIN_EVER_SCALE = 0.25;
export const MAX_PIECE_SCALE = 2;
// Room left around the ships when fitting, so no counter (or facing arrow) touches the map's edge.
const FIT_MARGIN = SIZE * 2.2;

/** The parts of a scene fitting looks at. */
export function fitScene(scene) {
  return {
    counters: scene.counters || [],
    viewer: scene.viewer || [],
    move_options: scene.move_options || {},
    fire_options: scene.fire_options || {},
  };
}

/**
 * What the default view is fitted to, as sets of SVG points, widest first: the ships in play,
 * the viewer's own, the focused ship alone; each with its vector markers, the ends of its legal
 * plots (the reachable area shaded while plotting) and the ships it may fire at now. The second
 * set is always every ship in play with its markers alone (no plot ends), the opening view's
 * fallback before any ship is left out.
 */
export function fitSets(scene, projection, focusId) {
  const active = scene.counters.filter((c) => !c.status || c.status === "active");
  const live = active.length ? active : scene.counters;
  const withTargets = (list) => {
    const ids = new Set(list.map((c) => c.id));
    for (const c of list) for (const o of scene.fire_options[c.id] || []) ids.add(o.target);
    return live.filter((c) => ids.has(c.id));
  };
  const own = withTargets(live.filter((c) => scene.viewer.includes(c.side)));
  const focused = withTargets(live.filter((c) => c.id === focusId));
  const project = (hex, altitude) => projection.project(hex, altitude);
  const points = (list) =>
    list.flatMap((c) => [
      project(c.hex, c.altitude),
      ...(projection.threeD && c.altitude ? [project(c.hex, 0)] : []),
      ...(c.markers || []).map((m) => project(m, 0)),
      ...(scene.move_options[c.id] || []).flatMap((o) => {
        const end = o.end || (o.path || [])[(o.path || []).length - 1];
        return end ? [project(end.hex, end.altitude)] : [];
      }),
    ]);
  const bare = (list) => list.flatMap((c) => [project(c.hex, c.altitude), ...(c.markers || []).map((m) => project(m, 0))]);
  const sets = [points(live), bare(live)];
  if (own.length && own.length < live.length) sets.push(points(own));
  if (focused.length && focused.length < (own.length || live.length)) sets.push(points(focused));
  return sets.filter((set) => set.length);
}

/** A view of the screen's shape at `k` pixels per unit, centred on box `b`. */
function framed(b, k, { width, height }) {
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  return { x: cx - width / k / 2, y: cy - height / k / 2, w: width / k, h: height / k };
}

/** How much larger than a hex's share pieces are drawn at `k` pixels per unit (see Pieces.rescale). */
export function pieceScale(k) {
  return Math.min(Math.max(1, 1.05 / k), MAX_PIECE_SCALE);
}

/** The box around `points` with `margin` all round. */
export function boxAround(points, margin) {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs) - margin;
  const y = Math.min(...ys) - margin;
  return { x, y, w: Math.max(...xs) + margin - x, h: Math.max(...ys) + margin - y };
}

/** The smallest box holding boxes `a` and `b` (either may be null). */
export function union(a, b) {
  if (!a || !b) return a || b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/**
 * The default view: every ship in play, always, when it can be done with counters still drawn
 * (down to MIN_EVER_SCALE). Tried in turn, each at the first zoom that fits it: the whole board
 * with every ship (bounded maps only: on a geomorphic map the printed board is only where the
 * ships started) at readable hexes; every ship with its reach at readable hexes (as close as it
 * fits, up to MAX_FIT_SCALE); every ship with smaller hexes (down to MIN_ALL_SHIPS_SCALE, with
 * their reach if it fits); every ship and its markers alone at any zoom down to MIN_EVER_SCALE.
 * Only ships further apart than that fall back to the viewer's own ships, else the focused one,
 * at the smallest readable zoom (the map's edge arrows point to the rest). The margin all round
 * grows with the counters when zoomed out, so none touches the map's edge.
 */
export function shipsView(bounds, sets, screen, { geomorphic = false } = {}) {
  const { width, height } = screen;
  const scaleFor = (b) => Math.min(width / b.w, height / b.h);
  if (!sets.length) return framed(bounds, Math.min(scaleFor(bounds), MAX_FIT_SCALE), screen);
  const fit = (points, extra = null) => {
    let box = union(boxAround(points, FIT_MARGIN), extra);
    const grow = pieceScale(scaleFor(box));
    if (grow > 1) box = union(boxAround(points, FIT_MARGIN * grow), extra);
    return { box, k: scaleFor(box) };
  };
  const [reach, bare] = [sets[0], sets[1] || sets[0]];
  const tries = [];
  if (!geomorphic && bounds) tries.push([() => fit(reach, bounds), MIN_FIT_SCALE], [() => fit(bare, bounds), MIN_FIT_SCALE]);
  tries.push(
    [() => fit(reach), MIN_FIT_SCALE],
    [() => fit(reach), MIN_ALL_SHIPS_SCALE],
    [() => fit(bare), MIN_ALL_SHIPS_SCALE],
    [() => fit(bare), MIN_EVER_SCALE],
  );
  for (const [attempt, least] of tries) {
    const f = attempt();
    if (f.k >= least) return framed(f.box, Math.min(f.k, MAX_FIT_SCALE), screen);
  }
  const some = sets.slice(2).map((set) => fit(set));
  const chosen = some.find((f) => f.k >= MIN_FIT_SCALE) || some[some.length - 1] || fit(bare);
  return framed(chosen.box, MIN_FIT_SCALE, screen);
}

/** The whole board, however small its hexes get. */
export function boardView(bounds, screen) {
  return framed(bounds, Math.min(screen.width / bounds.w, screen.height / bounds.h), screen);
}
