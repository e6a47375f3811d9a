// Side panels drawn from a scene: the turn indicator, ship cards, the event log and the result.

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

/** The header line: system, scenario, turn and phase, and whose orders are awaited. */
export function renderStatus(container, scene, mode) {
  const colours = sideColours(scene);
  const p = scene.prompt;
  const parts = [];
  if (scene.result) {
    parts.push(h("span", { class: "phase over" }, "Game over"));
  } else if (p) {
    parts.push(h("span", { class: "phase", "data-clock": p.clock }, p.clock));
    const waiting = p.waiting_for || [];
    if (waiting.length) {
      parts.push(
        h("span", { class: "awaited" }, "awaiting ", ...waiting.map((s) => sideChip(s, colours[s]))),
      );
    }
  }
  const mine = scene.my_turn || [];
  if (mode === "live" && mine.length) {
    parts.push(h("span", { class: "your-turn", "data-my-turn": mine.join(",") }, "Your orders are needed"));
  }
  const viewer = scene.viewer || [];
  if (mode === "replay") {
    parts.push(h("span", { class: "viewer replaying" }, `replay: step ${scene.step}`));
    container.replaceChildren(...parts);
    return;
  }
  parts.push(
    h(
      "span",
      { class: "viewer" },
      viewer.length ? ["playing ", ...viewer.map((s) => sideChip(s, colours[s]))] : "spectating",
    ),
  );
  container.replaceChildren(...parts);
}

const BOX_TOKENS = {
  O: "box",
  o: "box",
  "[ ]": "box",
  "○": "box",
  "◯": "box",
  "✕": "box crossed",
  "✗": "box crossed",
  "[x]": "box crossed",
  "[X]": "box crossed",
  "●": "box spent",
};

/** Card values like "O O ● ✕" become drawn boxes; anything else stays words. */
function cardValue(text) {
  const value = String(text);
  const tokens = value.match(/\[[ xX]\]|\S+|\s+/g) || [];
  const boxes = tokens.filter((t) => BOX_TOKENS[t]).length;
  if (!boxes) return value;
  return tokens.map((t) => {
    const cls = BOX_TOKENS[t];
    if (cls) {
      const label = cls.includes("crossed") ? "damaged" : cls.includes("spent") ? "spent" : "intact";
      return h("span", { class: cls, title: label, "aria-label": label }, cls.includes("crossed") ? "✕" : "");
    }
    return t.trim() ? h("span", { class: "box-note" }, t) : " ";
  });
}

export function renderCards(container, cards, colours) {
  const nodes = (cards || []).map((card) => {
    const rows = (card.rows || []).map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, cardValue(v))));
    let table = null;
    if (card.table && (card.table.rows || []).length) {
      table = h(
        "details",
        { class: "card-log" },
        h("summary", {}, card.table.headers.join(" / ")),
        h(
          "table",
          { class: "card-table" },
          h("thead", {}, h("tr", {}, ...card.table.headers.map((x) => h("th", { scope: "col" }, x)))),
          h("tbody", {}, ...card.table.rows.map((r) => h("tr", {}, ...r.map((x) => h("td", {}, x))))),
        ),
      );
    }
    return h(
      "article",
      {
        class: `card status-${card.status || "active"}`,
        style: `--side:${colours[card.side] || "#888"}`,
        dataset: { side: card.side, title: card.title },
      },
      h("header", {}, h("h3", {}, card.title), card.status && card.status !== "active" ? h("span", { class: "badge" }, card.status) : null),
      h("table", { class: "card-rows" }, h("tbody", {}, ...rows)),
      table,
    );
  });
  container.replaceChildren(...nodes);
}

export function renderLog(container, events) {
  const list = events || [];
  const items = [];
  for (const e of list) {
    // Kinds arrive as event class names ("TurnBegan") or tags ("turn-began"); compare letters only.
    const kind = String(e.kind || "").toLowerCase().replace(/[^a-z]/g, "");
    if (kind === "turnbegan") {
      items.push(h("li", { class: "log-turn", dataset: { turn: e.turn, kind: e.kind } }, e.text.replace(/^-+\s*|\s*-+$/g, "")));
    } else {
      items.push(h("li", { class: `log-${kind === "rolled" ? "roll" : "event"}`, dataset: { turn: e.turn, kind: e.kind } }, e.text));
    }
  }
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
  const grew = list.length !== Number(container.dataset.count || 0);
  container.replaceChildren(h("ol", { class: "log-list" }, ...items));
  container.dataset.count = String(list.length);
  if (grew || atBottom) container.scrollTop = container.scrollHeight;
}

export function renderResult(container, result, colours) {
  if (!result) {
    container.hidden = true;
    container.replaceChildren();
    return;
  }
  container.hidden = false;
  const winners = result.winners || [];
  const headline = winners.length
    ? h("p", { class: "winners" }, ...winners.map((w) => sideChip(w, colours[w])), winners.length > 1 ? " win" : " wins")
    : h("p", { class: "winners" }, "A draw");
  const scores = Object.entries(result.scores || {});
  fill(
    container,
    h("h2", {}, "Result"),
    headline,
    result.reason ? h("p", { class: "reason" }, result.reason) : null,
    scores.length
      ? h(
          "table",
          { class: "scores" },
          h("tbody", {}, ...scores.map(([s, v]) => h("tr", {}, h("th", { scope: "row" }, sideChip(s, colours[s])), h("td", {}, `${v} VP`)))),
        )
      : null,
  );
}
