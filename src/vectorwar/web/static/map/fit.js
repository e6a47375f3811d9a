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

/**
 * The default view: the whole board (`bounds`) when it can be shown with readable hexes, else
 * every ship in play (each as close as it fits, up to MAX_FIT_SCALE), else every ship in play
 * with smaller hexes (down to MIN_ALL_SHIPS_SCALE, with their reach if it fits, else the ships
 * and markers alone), else the viewer's own ships, else the focused one, centred at the
 * smallest readable zoom; a margin is left all round.
 */
export function shipsView(bounds, sets, screen) {
  const { width, height } = screen;
  const boxes = sets.map((points) => {
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const x = Math.min(...xs) - FIT_MARGIN;
    const y = Math.min(...ys) - FIT_MARGIN;
    return { x, y, w: Math.max(...xs) + FIT_MARGIN - x, h: Math.max(...ys) + FIT_MARGIN - y };
  });
  const scaleFor = (b) => Math.min(width / b.w, height / b.h);
  // The board, or every ship, as close as they fit (up to MAX_FIT_SCALE).
  const whole =
    [bounds, boxes[0]].find((b) => b && scaleFor(b) >= MIN_FIT_SCALE) ||
    boxes.slice(0, 2).find((b) => scaleFor(b) >= MIN_ALL_SHIPS_SCALE);
  // Otherwise the viewer's own ships if they fit, else the focused one, in the middle, with as
  // much of the board around them as readable hexes allow.
  const some = boxes.slice(2).find((b) => scaleFor(b) >= MIN_FIT_SCALE) || boxes[boxes.length - 1];
  return whole ? framed(whole, Math.min(scaleFor(whole), MAX_FIT_SCALE), screen) : framed(some || bounds, MIN_FIT_SCALE, screen);
}

/** The whole board, however small its hexes get. */
export function boardView(bounds, screen) {
  return framed(bounds, Math.min(screen.width / bounds.w, screen.height / bounds.h), screen);
}
