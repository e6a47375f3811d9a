// The map's pointer and keyboard: drag to pan (a press that does not move is a click on a counter
// or a hex), the wheel zooms about the pointer, arrow keys pan, + and - zoom about the focused
// ship, 0 fits the ships, M shows the whole board, 3 asks for the other view, F switches
// following the ships on or off, R takes the ruler out or puts it away (as does Esc).

/** A press that moves less than this many pixels is a click, not a drag. */
const DRAG_PX = 4;

/**
 * Listen on the map's SVG. `viewport` pans and zooms, `projection` maps a click back to a hex;
 * `handlers` has onCounterClick(id, ev), onHexClick(hex, ev), onViewKey(), onFollowKey(),
 * onRulerKey() and onEscape().
 */
export function installPanZoom(svg, viewport, projection, handlers) {
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, moved: false, id: ev.pointerId };
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!drag || !viewport.view) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_PX) return;
    if (!drag.moved) {
      drag.moved = true;
      viewport.auto = false;
      svg.setPointerCapture(drag.id);
      svg.classList.add("dragging");
    }
    const scale = viewport.view.w / svg.clientWidth;
    viewport.pan(-dx * scale, -dy * scale);
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
      handlers.onCounterClick(target.dataset.id, ev);
      return;
    }
    const p = viewport.toSvg(ev.clientX, ev.clientY);
    const hex = projection.hexAt(p.x, p.y);
    if (hex) handlers.onHexClick(hex, ev);
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener(
    "wheel",
    (ev) => {
      ev.preventDefault();
      viewport.auto = false;
      const p = viewport.toSvg(ev.clientX, ev.clientY);
      viewport.zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    },
    { passive: false },
  );
  svg.addEventListener("keydown", (ev) => {
    if (!viewport.view) return;
    const fn = keyAction(ev.key, viewport, handlers);
    if (fn && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ev.preventDefault();
      fn();
    }
  });
}

/** What a key does to the map, or undefined. */
function keyAction(key, viewport, handlers) {
  const step = viewport.view.w / 10;
  const panBy = (dx, dy) => {
    viewport.auto = false;
    viewport.pan(dx, dy);
  };
  const keys = {
    ArrowLeft: () => panBy(-step, 0),
    ArrowRight: () => panBy(step, 0),
    ArrowUp: () => panBy(0, -step),
    ArrowDown: () => panBy(0, step),
    "+": () => viewport.zoomStep(1.25),
    "=": () => viewport.zoomStep(1.25),
    "-": () => viewport.zoomStep(1 / 1.25),
    0: () => viewport.fitShips(),
    m: () => viewport.fitBoard(),
    M: () => viewport.fitBoard(),
    3: () => handlers.onViewKey(),
    f: () => handlers.onFollowKey(),
    F: () => handlers.onFollowKey(),
    r: () => handlers.onRulerKey(),
    R: () => handlers.onRulerKey(),
    Escape: () => handlers.onEscape(),
  };
  return Object.hasOwn(keys, key) ? keys[key] : undefined;
}
