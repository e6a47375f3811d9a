// Arrows at the map's edge for ships off screen: each points from the middle of the map toward
// its ship, carries the ship's name in its side's colour, and brings the ship into view when
// clicked. They are HTML buttons laid over the SVG (so they take the keyboard and a screen
// reader's attention like any button), in a layer that lets clicks elsewhere through to the map.

// Room kept between an arrow's middle and the map's edge, and between two arrows on one edge.
const INSET_PX = 22;
const SPREAD_PX = 26;
// A counter counts as on screen while its middle is this far inside the map's edge.
const ON_SCREEN_PX = 6;

/**
 * Where an arrow aimed at `wanted` goes when ships lie in one direction: the nearest place along its
 * edge (`side` "x": the left or right edge, so it moves in y) a whole SPREAD_PX from every arrow
 * `placed`, trying one step further each way in turn, and `wanted` itself (overlapping) when the edge
 * has no room. The tries are counted, so no layout keeps it looking: a third arrow by a corner, or
 * a map squeezed small while the page lays out, once sent it between two taken places for ever.
 */
export function freePlace(placed, wanted, side, width, height) {
  const along = side === "x" ? "y" : "x";
  const low = INSET_PX;
  const high = (along === "y" ? height : width) - INSET_PX;
  const free = (p) => placed.every((q) => Math.hypot(q.x - p.x, q.y - p.y) >= SPREAD_PX);
  for (let k = 0; k <= placed.length; k++) {
    for (const step of k ? [k * SPREAD_PX, -k * SPREAD_PX] : [0]) {
      const at = wanted[along] + step;
      if (k && (at < low || at > high)) continue;
      const p = { ...wanted, [along]: at };
      if (free(p)) return p;
    }
  }
  return wanted;
}

export class EdgeArrows {
  /** `onPick(id)` brings ship `id` into view; `colour(side)` gives a side's colour. */
  constructor(svg, onPick, colour) {
    this.svg = svg;
    this.onPick = onPick;
    this.colour = colour;
    const box = document.createElement("div");
    box.className = "edge-arrows";
    box.setAttribute("aria-label", "Ships off screen");
    svg.after(box);
    this.box = box;
  }

  /** Draw an arrow for each of `counters` (ships in play) whose screen point `at(c)` is off the map. */
  update(counters, at) {
    const svg = this.svg;
    const box = this.box;
    const width = svg.clientWidth;
    const height = svg.clientHeight;
    // Over the map exactly (an SVG element has no offsetLeft: placed from the two boxes instead).
    const parent = box.offsetParent;
    const r = svg.getBoundingClientRect();
    const pr = parent ? parent.getBoundingClientRect() : { left: 0, top: 0 };
    const left = r.left - pr.left - (parent ? parent.clientLeft : 0);
    const top = r.top - pr.top - (parent ? parent.clientTop : 0);
    Object.assign(box.style, { left: `${left}px`, top: `${top}px`, width: `${width}px`, height: `${height}px` });
    box.replaceChildren();
    if (!width || !height) return;
    const cx = width / 2;
    const cy = height / 2;
    const placed = [];
    for (const c of counters) {
      const p = at(c);
      if (!p) continue;
      const inside = p.x >= ON_SCREEN_PX && p.x <= width - ON_SCREEN_PX && p.y >= ON_SCREEN_PX && p.y <= height - ON_SCREEN_PX;
      if (inside) continue;
      const dx = p.x - cx;
      const dy = p.y - cy;
      // Where the line from the middle toward the ship meets the edge, kept INSET_PX inside it.
      const t = Math.min(dx ? (cx - INSET_PX) / Math.abs(dx) : Infinity, dy ? (cy - INSET_PX) / Math.abs(dy) : Infinity);
      const side = Math.abs(Math.abs(dx * t) - (cx - INSET_PX)) < 1 ? "x" : "y";
      const { x, y } = freePlace(placed, { x: cx + dx * t, y: cy + dy * t }, side, width, height);
      placed.push({ x, y });
      const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
      const name = c.id;
      const button = document.createElement("button");
      button.type = "button";
      button.className = `edge-arrow edge-${side === "x" ? (dx > 0 ? "right" : "left") : dy > 0 ? "bottom" : "top"}`;
      button.dataset.ship = c.id;
      button.title = `${c.id} is off screen at ${c.hex}: show it`;
      button.setAttribute("aria-label", `${c.id} is off screen: show it`);
      button.style.setProperty("--side", this.colour(c.side));
      const arrow = document.createElement("span");
      arrow.className = "edge-pointer";
      arrow.textContent = "➤";
      arrow.style.transform = `rotate(${angle.toFixed(1)}deg)`;
      const label = document.createElement("span");
      label.className = "edge-label";
      label.textContent = name;
      button.append(arrow, label);
      button.addEventListener("click", () => this.onPick(c.id));
      box.appendChild(button);
      // Keep the whole button on the map: its middle goes where the arrow points, moved in if needed.
      const bw = button.offsetWidth;
      const bh = button.offsetHeight;
      button.style.left = `${Math.min(Math.max(x - bw / 2, 2), width - bw - 2).toFixed(1)}px`;
      button.style.top = `${Math.min(Math.max(y - bh / 2, 2), height - bh - 2).toFixed(1)}px`;
    }
    box.dataset.count = String(placed.length);
  }
}
