// The board itself, drawn once per map: the hex grid (one path), a coordinate every five hexes,
// terrain, the sections and the playing area's edge. It lies on the plane, so the 3-D view tilts
// it with one transform.

import { H, SIZE, centre, corners, el, hexPoints } from "./geometry.js";

const TERRAIN_LABELS = {
  asteroid: "asteroid",
  "dense-body": "dense body",
  dense: "dense body",
  "asteroid-field": "asteroid field",
  blocking: "blocking",
  planet: "planet",
};

/**
 * Draw a scene's `map` into the grid, terrain and sections layers; answers the board's own area
 * (plane coordinates), which with the ships bounds panning on a bounded map.
 */
export function drawBoard(layers, map) {
  const [c0, r0, c1, r1] = map.extent || [0, 0, 9, 9];
  for (const name of ["grid", "terrain", "sections"]) layers[name].replaceChildren();
  // A geomorphic map's hexes are the endless sheet's (sheet.js); only its frame is drawn here.
  if (!map.geomorphic) drawGrid(layers.grid, c0, r0, c1, r1);
  drawTerrain(layers.terrain, map.terrain || []);
  drawSections(layers.sections, map.sections || []);
  // The playing area's edge.
  const tl = centre(`${c0},${r0}`);
  const br = centre(`${c1},${r1}`);
  el(
    "rect",
    { x: tl.x - SIZE, y: tl.y - H / 2, width: br.x - tl.x + 2 * SIZE, height: br.y - tl.y + H * 1.5, class: "map-edge" },
    layers.sections,
  );
  return { x: tl.x - SIZE * 2, y: tl.y - H * 1.5, w: br.x - tl.x + SIZE * 4, h: br.y - tl.y + H * 3 };
}

function drawGrid(layer, c0, r0, c1, r1) {
  // One path for the whole grid keeps big maps cheap to draw.
  let d = "";
  for (let c = c0; c <= c1; c++) {
    for (let r = r0; r <= r1; r++) {
      const { x, y } = centre(`${c},${r}`);
      const pts = corners(x, y);
      d += `M${pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join("L")}Z`;
    }
  }
  el("path", { d, class: "hex-grid" }, layer);
  // A light coordinate every few hexes helps players read positions without clutter.
  for (let c = c0; c <= c1; c++) {
    for (let r = r0; r <= r1; r++) {
      if (c % 5 === 0 && r % 5 === 0) {
        const { x, y } = centre(`${c},${r}`);
        const t = el("text", { x, y: y + SIZE * 0.62, class: "hex-coord" }, layer);
        t.textContent = `${c},${r}`;
      }
    }
  }
}

function drawTerrain(layer, terrain) {
  for (const t of terrain) {
    const kind = String(t.kind || "terrain");
    const poly = el(
      "polygon",
      { points: hexPoints(t.hex), class: `terrain terrain-${kind.replace(/[^a-z0-9-]/gi, "")}`, "data-hex": t.hex },
      layer,
    );
    const title = el("title", {}, poly);
    title.textContent = `${t.hex}: ${TERRAIN_LABELS[kind] || kind}`;
    if (kind.includes("asteroid") || kind === "blocking") {
      const { x, y } = centre(t.hex);
      el("circle", { cx: x - 4, cy: y - 3, r: 4, class: "rock" }, layer);
      el("circle", { cx: x + 5, cy: y + 4, r: 3, class: "rock" }, layer);
    } else if (kind.includes("dense") || kind === "planet") {
      const { x, y } = centre(t.hex);
      el("circle", { cx: x, cy: y, r: SIZE * 0.55, class: "dense" }, layer);
    }
  }
}

function drawSections(layer, sections) {
  for (const s of sections) {
    if (sections.length < 2 && s.name === "map") continue;
    // Boundaries run midway between neighbouring columns and rows, so sections tile exactly.
    const x0 = s.col * 1.5 * SIZE - 0.75 * SIZE;
    const x1 = (s.col + s.width - 1) * 1.5 * SIZE + 0.75 * SIZE;
    const y0 = s.row * H - H / 4;
    const y1 = (s.row + s.height) * H - H / 4;
    el("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "section", "data-section": s.name }, layer);
    const label = el("text", { x: x0 + 6, y: y0 + 22, class: "section-label" }, layer);
    label.textContent = s.name;
  }
}
