// Reading a typed AV:T order back into the composer's controls: each entry's words are matched
// against the ship's move bodies (longest first), its offered pieces (one per group) and its
// legal shots. Anything no control can show means the order stays in the typed line.

import { entries, moveBody, norm } from "./text.js";

/**
 * `offers(ship)` is {moves: [option], pieces: [{group, text}], shots: [piece]}. Answers
 * {ship: {move, picked: {group: text}, fired: [piece]}} for the ships the order names, or null
 * when some word has no control (or the order names no ship of these).
 */
export function readComposed(text, ships, offers) {
  const found = {};
  for (const entry of entries(text)) {
    const words = entry.split(/\s+/);
    const ship = ships.find((s) => norm(s) === norm(words[0]));
    if (!ship || found[ship]) return null;
    const got = readEntry(ship, words.slice(1).map(norm), offers(ship));
    if (!got) return null;
    found[ship] = got;
  }
  return Object.keys(found).length ? found : null;
}

function readEntry(ship, words, { moves, pieces, shots }) {
  let rest = words;
  // Takes `piece`'s words off the front of what is left, if they are there.
  const takes = (piece) => {
    const want = norm(piece).split(" ");
    if (want.length > rest.length || want.some((w, i) => rest[i] !== w)) return false;
    rest = rest.slice(want.length);
    return true;
  };
  const body = (opt) => moveBody(ship, opt);
  const longestFirst = [...moves].sort((a, b) => body(b).length - body(a).length);
  let move = longestFirst.find((opt) => body(opt) && takes(body(opt)));
  const picked = {};
  const fired = [];
  while (rest.length) {
    const piece = pieces.find((p) => !picked[p.group] && takes(p.text));
    if (piece) {
      picked[piece.group] = piece.text;
      continue;
    }
    const shot = shots.find((p) => takes(p));
    if (!shot) return null;
    fired.push(shot);
  }
  if (!move) move = longestFirst.find((opt) => norm(body(opt)) === "hold");
  if (!move) return null;
  return { move, picked, fired };
}
