// Building the page's HTML: one element helper, and a side's colour and name chip.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Replace a container's children, leaving out the null and false of optional parts. */
export function fill(container, ...nodes) {
  container.replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

export function sideColours(scene) {
  return Object.fromEntries((scene.sides || []).map((s) => [s.name, s.colour]));
}

export function sideChip(name, colour) {
  return h("span", { class: "side-chip", style: `--side:${colour || "#888"}` }, name);
}
