// Order text, shared by every composer: an order is entries joined by ";", an entry a ship id and
// its pieces joined by spaces. Comparisons ignore case and spacing, as the rules' parsers do.

export function norm(text) {
  return String(text).trim().replace(/\s+/g, " ").toLowerCase();
}

/** An order's entries, trimmed, empty ones left out. */
export function entries(text) {
  return String(text)
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A plot's text without its ship id in front ("B3 L1" for ship "s1"'s "s1 B3 L1"). */
export function moveBody(ship, option) {
  return (option.text.startsWith(`${ship} `) ? option.text.slice(ship.length + 1) : option.text).trim();
}

/** A fire order as {ship: [piece, ...]}; "hold" and empty entries give nothing. */
export function firePieces(text) {
  const out = {};
  for (const entry of entries(text)) {
    const [ship, ...pieces] = entry.split(/\s+/);
    if (norm(ship) === "hold") continue;
    out[ship] = [...(out[ship] || []), ...pieces];
  }
  return out;
}

/** The order text for chosen pieces: "SHIP p p; SHIP p", or "hold" when nothing is chosen. */
export function fireText(pieces) {
  const parts = Object.entries(pieces)
    .filter(([, list]) => list.length)
    .map(([ship, list]) => `${ship} ${list.join(" ")}`);
  return parts.length ? parts.join("; ") : "hold";
}

/**
 * What a weapon button writes into the order. The scene names weapons but not the notation that
 * uses them, so the prompt's help decides: "MOUNT*GUNS" asks for a gun count after the mount,
 * "COUNT>TARGET" for a number of missiles; otherwise the weapon's name is the piece.
 */
export function weaponInsertion(help) {
  if (/MOUNT\*/.test(help)) return (weapon) => `${weapon}*1`;
  if (/\bCOUNT>/.test(help)) return () => "1";
  return (weapon) => weapon;
}

/** `fn` called once `ms` after the last call; `flush()` drops a call still waiting. */
export function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  wrapped.flush = () => clearTimeout(timer);
  return wrapped;
}
