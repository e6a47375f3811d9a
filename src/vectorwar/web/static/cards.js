// The Ships tab: each ship's record card, its marks drawn in the paper sheet's shapes.
//
// Cards are plain text shared with the terminal, so each rule system writes its record-sheet marks
// as characters. What a character means depends on who wrote it and on which line: a "●" is a
// launched missile on a VV5 card but a filled-in oval on an MSC one. Each mark is drawn in the
// paper sheet's shape (a box, or an oval) and state, and named in words for tooltips and screen
// readers. Keep these tables in step with the display modules named in each comment
// (tests/e2e/test_cards.py draws cards those modules write and checks every mark).

import { fill, h } from "./dom.js";

const mark = (shape, state, label) => ({ shape, state, label });

// systems/vv5/display.py: damage boxes, open "O" or knocked out "✕"; after the word "armour",
// the armour ovals, "o" or crossed off "x"; launchers on the MISSILES line.
const VV5_BOXES = { O: mark("box", "open", "box intact"), "✕": mark("box", "crossed", "box knocked out") };
const VV5_ARMOUR = {
  o: mark("oval", "open", "armour oval intact"),
  x: mark("oval", "crossed", "armour oval crossed off"),
};
const VV5_LAUNCHERS = {
  O: mark("box", "open", "launcher ready"),
  "●": mark("box", "filled", "missile launched"),
  "✕": mark("box", "crossed", "launcher destroyed"),
  B: mark("box", "bomb", "bomb"),
};
// systems/msc/display.py: the Ship Turn Record's ovals. ENGINE and SHIELD ovals are open "O"
// or filled in "●" (beyond the design's rating from the start, or lost to damage); a weapon's
// oval is open where one is fitted, filled in where none is, and "✕" where it was shot away.
const MSC_OVALS = {
  O: mark("oval", "open", "oval open"),
  "●": mark("oval", "filled", "oval filled in: beyond the rating or lost to damage"),
};
const MSC_WEAPONS = {
  O: mark("oval", "open", "weapon fitted"),
  "●": mark("oval", "filled", "oval filled in: no weapon on this side"),
  "✕": mark("oval", "crossed", "weapon shot away"),
};
// Any other system: only characters that cannot be words.
const GENERIC = {
  "[ ]": mark("box", "open", "box open"),
  "[x]": mark("box", "crossed", "box crossed off"),
  "[X]": mark("box", "crossed", "box crossed off"),
  "○": mark("oval", "open", "oval open"),
  "◯": mark("oval", "open", "oval open"),
  "●": mark("oval", "filled", "oval filled in"),
  "✕": mark("box", "crossed", "crossed off"),
  "✗": mark("box", "crossed", "crossed off"),
};

/**
 * Which marks a card line may hold, by the system that wrote the card and the line's label:
 * {marks, after: {word: marks}}, or null for a line of words. A word in `after` (VV5's
 * "armour") switches the marks for the rest of the line.
 */
export function markTable(system, label) {
  const key = String(label);
  if (system === "vv5") {
    if (!/^\d+ /.test(key)) return null;
    return { marks: /^5 MISSILES/.test(key) ? VV5_LAUNCHERS : VV5_BOXES, after: { armour: VV5_ARMOUR } };
  }
  if (system === "msc") {
    if (key === "WEAPONS") return { marks: MSC_WEAPONS, after: {} };
    if (key === "ENGINE" || key === "SHIELD") return { marks: MSC_OVALS, after: {} };
    return null;
  }
  // VMS cards write their combat lines as numbers ("3/4"); AV:T's as words.
  if (system === "vms" || system === "avt") return null;
  return { marks: GENERIC, after: {} };
}

function markNode(token, m) {
  return h(
    "span",
    { class: `mark ${m.shape} ${m.state}`, role: "img", title: m.label, "aria-label": m.label, dataset: { mark: token } },
    m.state === "crossed" ? "✕" : m.state === "bomb" ? "B" : "",
  );
}

/** A card value: its marks drawn (and listed in `seen` for the key), anything else kept as words. */
function cardValue(text, table, seen) {
  const value = String(text);
  if (!table) return value;
  const tokens = value.match(/\[[ xX]\]|\S+|\s+/g) || [];
  let marks = table.marks;
  let drawn = 0;
  const nodes = tokens.map((t) => {
    if (!t.trim()) return " ";
    const next = table.after[t.toLowerCase()];
    if (next) {
      marks = next;
      return h("span", { class: "mark-word" }, t);
    }
    const m = marks[t];
    if (!m) return h("span", { class: "box-note" }, t);
    drawn += 1;
    seen.set(`${m.shape} ${m.state} ${m.label}`, { token: t, m });
    return markNode(t, m);
  });
  return drawn ? nodes : value;
}

/** The marks used on the cards shown, each with its meaning, above the cards. */
function markKey(seen) {
  if (!seen.size) return null;
  return h(
    "p",
    { class: "mark-key", "aria-label": "What the marks mean" },
    ...[...seen.values()].map(({ token, m }) => h("span", { class: "mark-key-item" }, markNode(token, m), ` ${m.label}`)),
  );
}

/** The ship cards; `scene` says which system wrote them, and so what their marks mean. */
export function renderCards(container, cards, colours, scene = {}) {
  const seen = new Map();
  const nodes = (cards || []).map((card) => {
    const rows = (card.rows || []).map(([k, v]) =>
      h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, cardValue(v, markTable(scene.system, k), seen))),
    );
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
  fill(container, markKey(seen), nodes);
}
