// The orders panel: legal movement choices with ghosts, legal shots from `fire_options`, or a
// checked order line with helpers; commit, take back, and drafts kept on the server while the
// player edits.

import { h, sideChip, sideColours } from "./panels.js";

const DRAFT_DELAY_MS = 500;
const CHECK_DELAY_MS = 250;

function norm(text) {
  return String(text).trim().replace(/\s+/g, " ").toLowerCase();
}

function entries(text) {
  return String(text)
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A fire order as {ship: [piece, ...]}; "hold" and empty entries give nothing. */
function firePieces(text) {
  const out = {};
  for (const entry of entries(text)) {
    const [ship, ...pieces] = entry.split(/\s+/);
    if (norm(ship) === "hold") continue;
    out[ship] = [...(out[ship] || []), ...pieces];
  }
  return out;
}

/** The order text for chosen pieces: "SHIP p p; SHIP p", or "hold" when nothing is chosen. */
function fireText(pieces) {
  const parts = Object.entries(pieces)
    .filter(([, list]) => list.length)
    .map(([ship, list]) => `${ship} ${list.join(" ")}`);
  return parts.length ? parts.join("; ") : "hold";
}

function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  wrapped.flush = () => clearTimeout(timer);
  return wrapped;
}

/**
 * What a weapon button writes into the order. The scene names weapons but not the notation that
 * uses them, so the prompt's help decides: "MOUNT*GUNS" asks for a gun count after the mount,
 * "COUNT>TARGET" for a number of missiles; otherwise the weapon's name is the piece.
 */
function weaponInsertion(help) {
  if (/MOUNT\*/.test(help)) return (weapon) => `${weapon}*1`;
  if (/\bCOUNT>/.test(help)) return () => "1";
  return (weapon) => weapon;
}

export class OrdersPanel {
  constructor(container, { api, game, map, onScene, onError }) {
    this.container = container;
    this.api = api;
    this.game = game;
    this.map = map;
    this.onScene = onScene;
    this.onError = onError;
    this.key = "";
    this.scene = null;
    this.seatPanels = [];
    this.saveDraft = {};
  }

  /** Rebuild only when what must be ordered changes, so a push never wipes what is being typed. */
  update(scene) {
    this.scene = scene;
    const key = JSON.stringify([
      scene.game,
      scene.prompt && scene.prompt.clock,
      scene.my_turn,
      scene.pending,
      Object.keys(scene.move_options || {}),
      scene.step,
    ]);
    if (key === this.key) {
      this.refreshWaiting();
      return;
    }
    this.key = key;
    this.build();
  }

  clear() {
    this.key = "";
    this.seatPanels = [];
    this.fireArmed = null;
    this.map.mark([]);
    this.container.replaceChildren();
    this.map.ghost(null);
    this.map.shade("reach", [], "reach");
    this.map.shade("arc", [], "arc");
  }

  ownerOf(shipId) {
    const c = (this.scene.counters || []).find((x) => x.id === shipId);
    return c ? c.side : null;
  }

  counter(shipId) {
    return (this.scene.counters || []).find((x) => x.id === shipId) || null;
  }

  build() {
    const scene = this.scene;
    const clock = scene.prompt ? scene.prompt.clock : null;
    // Another seat's commit rebuilds the panel (hot-seat); what this seat was editing survives it.
    this.carried = {};
    if (clock === this.lastClock) {
      for (const p of this.seatPanels) {
        const text = p.text();
        if (text) this.carried[p.seat] = text;
      }
    }
    this.lastClock = clock;
    this.fireArmed = null;
    this.map.mark([]);
    this.map.ghost(null);
    this.map.shade("reach", [], "reach");
    this.map.shade("arc", [], "arc");
    this.seatPanels = [];
    const colours = sideColours(scene);
    const viewer = scene.viewer || [];
    const mine = scene.my_turn || [];
    const pending = scene.pending || {};
    const nodes = [];
    if (!viewer.length) {
      this.container.replaceChildren(h("p", { class: "hint" }, "You are watching this game."));
      return;
    }
    if (!scene.prompt) {
      this.container.replaceChildren(h("p", { class: "hint" }, "No more orders: the game is over."));
      return;
    }
    if (scene.prompt.help) nodes.push(h("p", { class: "prompt-help" }, scene.prompt.help));
    for (const seat of viewer) {
      if (pending[seat] !== undefined && !mine.includes(seat)) {
        nodes.push(this.pendingBlock(seat, pending[seat], colours));
      } else if (mine.includes(seat)) {
        nodes.push(this.seatForm(seat, colours));
      }
    }
    if (!nodes.some((n) => n.classList && (n.classList.contains("seat-orders") || n.classList.contains("pending")))) {
      nodes.push(h("p", { class: "hint waiting", id: "waiting-note" }, ""));
    }
    this.container.replaceChildren(...nodes);
    this.refreshWaiting();
    const first = this.container.querySelector("input[type=radio]:checked, input[type=radio], input[type=text]");
    if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
  }

  refreshWaiting() {
    const note = this.container.querySelector("#waiting-note");
    if (!note || !this.scene.prompt) return;
    const waiting = this.scene.prompt.waiting_for || [];
    note.textContent = waiting.length ? `Waiting for ${waiting.join(", ")}…` : "Resolving…";
  }

  pendingBlock(seat, text, colours) {
    // Hot-seat (one viewer, several seats) at a secret prompt: the next seat's player is at this
    // screen, so the plot stays covered, and out of the page, until someone asks to see it.
    const secret = Boolean(this.scene.prompt && this.scene.prompt.simultaneous && (this.scene.viewer || []).length > 1);
    let body = h("p", { class: "pending-text" }, h("code", {}, text));
    if (secret) {
      const note = h("span", { class: "pending-hidden-note" }, "sent (hidden until all are in)");
      let plot = null;
      const toggle = h(
        "button",
        {
          type: "button",
          class: "secondary show-plot",
          "aria-expanded": "false",
          onclick: () => {
            if (plot) {
              plot.replaceWith(note);
              plot = null;
            } else {
              plot = h("code", {}, text);
              note.replaceWith(plot);
            }
            toggle.setAttribute("aria-expanded", String(Boolean(plot)));
            toggle.textContent = plot ? "Hide" : "Show";
          },
        },
        "Show",
      );
      body = h("p", { class: "pending-text pending-hidden" }, note, toggle);
    }
    const block = h(
      "section",
      { class: "pending", dataset: { seat } },
      h("h3", {}, sideChip(seat, colours[seat]), " order sent"),
      body,
    );
    if (this.scene.prompt && this.scene.prompt.simultaneous) {
      block.append(
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: async () => {
              try {
                await this.api.withdraw(this.game, seat);
                const fresh = await this.api.scene(this.game);
                this.onScene(fresh);
              } catch (err) {
                this.onError(err);
              }
            },
          },
          "Take it back",
        ),
      );
    }
    block.append(h("p", { class: "hint waiting", id: "waiting-note" }, ""));
    return block;
  }

  seatForm(seat, colours) {
    const scene = this.scene;
    const moveOptions = scene.move_options || {};
    const ships = Object.keys(moveOptions).filter((id) => {
      const owner = this.ownerOf(id);
      return owner === seat || (owner === null && (scene.my_turn || []).length === 1);
    });
    const draft = this.carried[seat] || (scene.drafts || {})[seat] || "";
    const form = h("form", { class: "seat-orders", dataset: { seat }, novalidate: true });
    const status = h("p", { class: "check", role: "status", "aria-live": "polite" });
    const commit = h("button", { type: "submit", class: "commit" }, `Commit ${seat}'s orders`);
    form.append(h("h3", {}, sideChip(seat, colours[seat]), " orders"));
    const panel = { seat, form, status, commit, text: () => "" };
    const step = this.scene.step;
    this.saveDraft[seat] = debounce((text) => {
      this.api.saveDraft(this.game, seat, text, step).catch(() => {
        // A lost draft only costs retyping; the order itself is never sent this way.
      });
    }, DRAFT_DELAY_MS);

    if (ships.length && this.composes(ships)) {
      this.buildComposer(panel, ships, draft, colours[seat]);
    } else if (ships.length) {
      this.buildMovePicker(panel, ships, draft, colours[seat]);
    } else {
      this.buildTextOrder(panel, draft);
    }
    form.append(status, h("div", { class: "actions" }, commit, h("span", { class: "kbd-hint" }, "Enter commits")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.commit(panel);
    });
    form.addEventListener("keydown", (ev) => {
      // Radio lists and selects do not submit on Enter by themselves.
      if (ev.key === "Enter" && (ev.target.type === "radio" || ev.target.tagName === "SELECT")) {
        ev.preventDefault();
        this.commit(panel);
      }
    });
    this.seatPanels.push(panel);
    return form;
  }

  buildMovePicker(panel, ships, draft, colour) {
    const scene = this.scene;
    const chosen = {};
    const draftEntries = entries(draft).map(norm);
    const preview = h("p", { class: "order-preview" });
    const showPreview = () => {
      const text = panel.text();
      preview.replaceChildren("Order: ", h("code", { "data-order": text }, text || "—"));
      const complete = ships.every((s) => chosen[s]);
      panel.commit.disabled = !complete;
      panel.status.textContent = complete ? "" : `Choose a plot for ${ships.filter((s) => !chosen[s]).join(", ")}.`;
    };
    panel.text = () =>
      ships
        .filter((s) => chosen[s])
        .map((s) => chosen[s].text)
        .join("; ");
    const focusShip = (ship, option) => this.focusPlot(ship, option || chosen[ship] || null, colour);
    this.activePicker = { ships, chosen, focusShip, panel };
    for (const ship of ships) {
      const options = scene.move_options[ship];
      const counter = this.counter(ship);
      const { list, inputs } = this.plotList(panel.seat, ship, chosen, focusShip, () => {
        showPreview();
        this.saveDraft[panel.seat](panel.text());
      });
      for (const [input, opt] of inputs) {
        if (draftEntries.includes(norm(opt.text))) {
          input.checked = true;
          chosen[ship] = opt;
        }
      }
      const where = counter ? ` at ${counter.hex}${counter.velocity ? `, ${counter.velocity}` : ""}` : "";
      panel.form.append(
        h(
          "fieldset",
          { class: "ship-plot", dataset: { ship } },
          h("legend", {}, `${ship}${where}`, h("span", { class: "count" }, ` ${options.length} legal plots`)),
          list,
        ),
      );
    }
    panel.form.append(preview);
    showPreview();
    focusShip(ships[0], chosen[ships[0]]);
    const radio = (ship, opt) =>
      [...panel.form.querySelectorAll("input[type=radio]")].find((i) => i.dataset.ship === ship && i.value === opt.text);
    // Any system's plot may be written by hand; a typed plot the lists hold is shown in them again.
    const refresh = () => {
      showPreview();
      focusShip(ships.includes(this.activeShip) ? this.activeShip : ships[0]);
    };
    this.addTypeToggle(panel, [...panel.form.querySelectorAll("fieldset.ship-plot"), preview], {
      refresh,
      load: (text) => {
        const wanted = entries(text).map(norm);
        const found = ships
          .map((ship) => [ship, scene.move_options[ship].find((o) => wanted.includes(norm(o.text)))])
          .filter(([, opt]) => opt);
        if (!wanted.length || found.length !== wanted.length) return false;
        for (const [ship, opt] of found) {
          chosen[ship] = opt;
          radio(ship, opt).checked = true;
        }
        return true;
      },
    });
    const known = ships.flatMap((ship) => scene.move_options[ship].map((o) => norm(o.text)));
    if (draftEntries.some((e) => !known.includes(e))) panel.typeOrder(draft);
  }

  /** Shade `ship`'s reachable hexes and draw `option`'s ghost (none: the ship as it is). */
  focusPlot(ship, option, colour) {
    const options = this.scene.move_options[ship];
    this.map.shade(
      "reach",
      options.map((o) => (o.end || o.path[o.path.length - 1]).hex),
      "reach",
    );
    this.map.ghost(this.counter(ship) || { id: ship }, option, colour);
    this.activeShip = ship;
  }

  /**
   * A ship's legal plots as a radio group: choosing one records it in `chosen` and calls
   * `picked`; focus and hover show its ghost. Answers the group and its [input, option] pairs.
   */
  plotList(seat, ship, chosen, focusShip, picked) {
    const counter = this.counter(ship);
    const list = h("div", { class: "options", role: "radiogroup", "aria-label": `Plots for ${ship}` });
    const inputs = [];
    for (const [i, opt] of this.scene.move_options[ship].entries()) {
      const end = opt.end || opt.path[opt.path.length - 1];
      const body = (opt.text.startsWith(`${ship} `) ? opt.text.slice(ship.length + 1) : opt.text).trim();
      const id = `opt-${seat}-${ship}-${i}`;
      const input = h("input", {
        type: "radio",
        name: `plot-${seat}-${ship}`,
        id,
        value: opt.text,
        dataset: { ship, end: end.hex, facing: opt.facing || "" },
      });
      inputs.push([input, opt]);
      input.addEventListener("change", () => {
        chosen[ship] = opt;
        focusShip(ship, opt);
        picked();
      });
      input.addEventListener("focus", () => {
        focusShip(ship, chosen[ship]);
        if (counter) this.map.ensureVisible(counter.hex, counter.altitude);
      });
      const label = h(
        "label",
        { for: id, class: "option", dataset: { end: end.hex } },
        input,
        h("span", { class: "opt-text" }, body),
        h("span", { class: "opt-end" }, `→ ${end.hex}${end.altitude ? ` alt ${end.altitude}` : ""}${opt.facing ? ` ${opt.facing}` : ""}`),
      );
      label.addEventListener("mouseenter", () => focusShip(ship, opt));
      label.addEventListener("mouseleave", () => focusShip(ship, chosen[ship]));
      list.append(label);
    }
    return { list, inputs };
  }

  /** Clicking a reachable hex picks the plot ending there (clicking again cycles through them). */
  pickHex(hex) {
    const picker = this.activePicker;
    if (!picker || !this.activeShip || !this.container.contains(picker.panel.form)) return false;
    // While the order is typed the lists are put away: a click on the map must not change them.
    if (picker.panel.typed) return true;
    const ship = this.activeShip;
    const inputs = [...picker.panel.form.querySelectorAll(`input[type=radio][data-ship="${CSS.escape(ship)}"]`)].filter(
      (i) => i.dataset.end === hex,
    );
    if (!inputs.length) return false;
    const current = inputs.findIndex((i) => i.checked);
    const next = inputs[(current + 1) % inputs.length];
    next.checked = true;
    next.dispatchEvent(new Event("change"));
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
    return true;
  }

  /**
   * Whether the seat's ships get the composer: a ship that moves and, in the same entry, may
   * also fire or add other actions (`order_pieces`, AV:T's pivots, rolls, bias...).
   */
  composes(ships) {
    const fire = this.scene.fire_options || {};
    const pieces = this.scene.order_pieces || {};
    return ships.some((s) => (fire[s] || []).length || (pieces[s] || []).length);
  }

  /** A debounced live check of `textOf()` into the panel's status while `live()` says it is shown. */
  liveCheck(panel, textOf, live) {
    return debounce(async () => {
      const text = textOf();
      if (!live()) return;
      if (!text) {
        panel.status.className = "check";
        panel.status.textContent = "";
        return;
      }
      try {
        const res = await this.api.check(this.game, panel.seat, text);
        if (!live() || textOf() !== text) return;
        panel.status.className = "check ok";
        panel.status.textContent = `✓ ${res.canonical || text}`;
      } catch (err) {
        if (!live() || textOf() !== text) return;
        panel.status.className = "check bad";
        panel.status.textContent = err.message;
      }
    }, CHECK_DELAY_MS);
  }

  /**
   * "Type the order instead": puts the pickers (`controls`) away for a free order line, checked
   * live, so any legal order can always be written. Switching back shows the typed order in the
   * pickers when `load(text)` can (else the pickers keep their choices). `panel.typeOrder(text)`
   * opens the line with a text (a draft the pickers cannot show).
   */
  addTypeToggle(panel, controls, { refresh, load }) {
    const seat = panel.seat;
    const picked = panel.text;
    const input = h("input", {
      type: "text",
      class: "order-text",
      name: `order-${seat}`,
      "aria-label": `Order for ${seat}`,
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "type the order",
    });
    const line = h("div", { class: "typed-order", hidden: true }, input);
    const toggle = h(
      "button",
      { type: "button", class: "secondary type-toggle", "aria-pressed": "false", "aria-controls": `typed-${seat}` },
      "Type the order instead",
    );
    line.id = `typed-${seat}`;
    const check = this.liveCheck(panel, () => input.value.trim(), () => Boolean(panel.typed));
    input.addEventListener("input", () => {
      check();
      this.saveDraft[seat](input.value.trim());
    });
    const show = (typed) => {
      panel.typed = typed;
      for (const node of controls) node.hidden = typed;
      line.hidden = !typed;
      toggle.setAttribute("aria-pressed", String(typed));
      toggle.textContent = typed ? "Use the choices instead" : "Type the order instead";
    };
    panel.typeOrder = (text) => {
      input.value = text;
      show(true);
      // A weapon armed in the put-away picker must not take map clicks meanwhile.
      if (this.fireArmed && this.fireArmed.panel === panel) {
        this.fireArmed = null;
        this.map.mark([]);
        this.map.shade("arc", [], "arc");
        for (const b of panel.form.querySelectorAll("button.weapon")) b.setAttribute("aria-pressed", "false");
      }
      panel.text = () => input.value.trim();
      panel.commit.disabled = false;
      panel.status.className = "check";
      panel.status.textContent = "";
      check();
    };
    toggle.addEventListener("click", () => {
      if (!panel.typed) {
        panel.typeOrder(picked());
        input.focus();
        return;
      }
      const text = input.value.trim();
      if (text && text !== picked()) load(text);
      show(false);
      panel.text = picked;
      panel.status.className = "check";
      panel.status.textContent = "";
      refresh();
      this.saveDraft[seat](panel.text());
      toggle.focus();
    });
    panel.form.append(line, h("p", { class: "type-toggle-row" }, toggle));
  }

  /**
   * One composer per ship that moves and may also fire or add other actions in the same entry
   * (AV:T): the movement radios (ghost and reach as in the plain list), a select per piece
   * group, and the shot picker. The entry is the ship id, the move's body ("hold" only when
   * nothing else is chosen), the chosen pieces in group order, then the shots, joined by
   * spaces; the whole order is previewed and checked live, so what only fails together (a pivot
   * with a roll, shots over the battery) shows the server's words before committing.
   */
  buildComposer(panel, ships, draft, colour) {
    const scene = this.scene;
    const seat = panel.seat;
    const fire = this.fireOptionsFor(seat) || {};
    const allPieces = scene.order_pieces || {};
    const chosen = {};
    const picks = {};
    const shots = {};
    const groupsOf = (ship) => [...new Set((allPieces[ship] || []).map((p) => p.group))];
    const bodyOf = (ship, opt) => (opt.text.startsWith(`${ship} `) ? opt.text.slice(ship.length + 1) : opt.text).trim();
    const entryOf = (ship) => {
      const opt = chosen[ship];
      if (!opt) return "";
      const extra = [...groupsOf(ship).map((g) => (picks[ship] || {})[g]).filter(Boolean), ...(shots[ship] || [])];
      const body = bodyOf(ship, opt);
      const move = body && !(norm(body) === "hold" && extra.length) ? [body] : [];
      return [ship, ...move, ...extra].join(" ");
    };
    panel.text = () =>
      ships
        .map(entryOf)
        .filter(Boolean)
        .join("; ");
    const preview = h("p", { class: "order-preview" });
    const check = this.liveCheck(panel, () => panel.text(), () => !panel.typed && ships.every((s) => chosen[s]));
    const showPreview = () => {
      if (panel.typed) return;
      const text = panel.text();
      preview.replaceChildren("Order: ", h("code", { "data-order": text }, text || "—"));
      const complete = ships.every((s) => chosen[s]);
      panel.commit.disabled = !complete;
      if (complete) {
        panel.status.className = "check";
        panel.status.textContent = "Checking…";
        check();
      } else {
        panel.status.className = "check";
        panel.status.textContent = `Choose a plot for ${ships.filter((s) => !chosen[s]).join(", ")}.`;
      }
    };
    const changed = () => {
      showPreview();
      this.saveDraft[seat](panel.text());
    };
    const focusShip = (ship, option) => this.focusPlot(ship, option || chosen[ship] || null, colour);
    this.activePicker = { ships, chosen, focusShip, panel };
    const chips = {};
    const showShots = (ship) => {
      const list = shots[ship] || [];
      chips[ship].replaceChildren(
        h("span", { class: "fire-row-label" }, "Firing:"),
        ...(list.length
          ? list.map((piece, i) =>
              h(
                "button",
                {
                  type: "button",
                  class: "piece",
                  title: `remove ${piece} from ${ship}'s shots`,
                  "aria-label": `Remove ${ship} ${piece}`,
                  dataset: { ship, piece },
                  onclick: () => {
                    shots[ship].splice(i, 1);
                    showShots(ship);
                    changed();
                  },
                },
                piece,
                h("span", { class: "remove", "aria-hidden": "true" }, "×"),
              ),
            )
          : [h("span", { class: "hint" }, "nothing")]),
      );
    };
    panel.shotsOf = (ship) => shots[ship] || [];
    panel.addShot = (ship, piece) => {
      if (!chips[ship]) return;
      shots[ship] = [...(shots[ship] || []), piece];
      showShots(ship);
      changed();
    };
    const controls = [];
    const radios = {};
    const selects = {};
    for (const ship of ships) {
      const options = scene.move_options[ship];
      const counter = this.counter(ship);
      selects[ship] = {};
      const { list, inputs } = this.plotList(seat, ship, chosen, focusShip, changed);
      radios[ship] = inputs;
      const where = counter ? ` at ${counter.hex}${counter.velocity ? `, ${counter.velocity}` : ""}` : "";
      const box = h(
        "fieldset",
        { class: "ship-plot composer", dataset: { ship } },
        h("legend", {}, `${ship}${where}`, h("span", { class: "count" }, ` ${options.length} legal plots`)),
        h("div", { class: "composer-part" }, h("span", { class: "composer-label" }, "Move"), list),
      );
      const groups = groupsOf(ship);
      if (groups.length) {
        const row = h("div", { class: "composer-part composer-pieces" });
        for (const group of groups) {
          const offered = allPieces[ship].filter((p) => p.group === group);
          const select = h(
            "select",
            { class: "piece-select", name: `piece-${seat}-${ship}-${group}`, dataset: { ship, group } },
            h("option", { value: "" }, "—"),
            ...offered.map((p) =>
              h("option", { value: p.text }, p.text.startsWith(`${group} `) ? p.text.slice(group.length + 1) : p.text),
            ),
          );
          select.addEventListener("change", () => {
            picks[ship] = { ...(picks[ship] || {}), [group]: select.value };
            changed();
          });
          selects[ship][group] = select;
          row.append(h("label", { class: "piece-group" }, h("span", { class: "composer-label" }, group), select));
        }
        box.append(row);
      }
      const shipFire = fire[ship] || [];
      if (shipFire.length) {
        const targetRow = h("div", { class: "fire-row targets", hidden: true });
        const weaponRow = this.weaponRow(panel, ship, shipFire, targetRow);
        chips[ship] = h("div", { class: "fire-chosen", "aria-live": "polite" });
        box.append(
          h("div", { class: "composer-part composer-fire", dataset: { ship } }, weaponRow, targetRow, chips[ship]),
        );
        showShots(ship);
      }
      controls.push(box);
      panel.form.append(box);
    }
    controls.push(preview);
    panel.form.append(preview);
    if (Object.keys(chips).length) {
      const hint = h("p", { class: "hint" }, "Pick a weapon, then a target (a button, or a ringed counter on the map).");
      controls.push(hint);
      panel.form.append(hint);
    }

    /** Shows a seat order in the controls; false (nothing changed) when some part has no control. */
    const load = (text) => {
      const found = {};
      for (const entry of entries(text)) {
        const words = entry.split(/\s+/);
        const ship = ships.find((s) => norm(s) === norm(words[0]));
        if (!ship || found[ship]) return false;
        let rest = words.slice(1).map(norm);
        const takes = (piece) => {
          const want = norm(piece).split(" ");
          if (want.length > rest.length || want.some((w, i) => rest[i] !== w)) return false;
          rest = rest.slice(want.length);
          return true;
        };
        const moves = radios[ship].map(([, opt]) => opt).sort((a, b) => bodyOf(ship, b).length - bodyOf(ship, a).length);
        let move = moves.find((opt) => bodyOf(ship, opt) && takes(bodyOf(ship, opt)));
        const picked = {};
        const fired = [];
        const offered = allPieces[ship] || [];
        const firing = [...new Set((fire[ship] || []).map((o) => o.piece))];
        while (rest.length) {
          const piece = offered.find((p) => !picked[p.group] && takes(p.text));
          if (piece) {
            picked[piece.group] = piece.text;
            continue;
          }
          const shot = firing.find((p) => takes(p));
          if (!shot) return false;
          fired.push(shot);
        }
        if (!move) move = moves.find((opt) => norm(bodyOf(ship, opt)) === "hold");
        if (!move) return false;
        found[ship] = { move, picked, fired };
      }
      if (!Object.keys(found).length) return false;
      for (const ship of ships) {
        const got = found[ship];
        chosen[ship] = got ? got.move : undefined;
        for (const [input, opt] of radios[ship]) input.checked = Boolean(got) && opt === got.move;
        picks[ship] = got ? got.picked : {};
        for (const [group, select] of Object.entries(selects[ship])) select.value = picks[ship][group] || "";
        shots[ship] = got ? got.fired : [];
        if (chips[ship]) showShots(ship);
      }
      return true;
    };

    const refresh = () => {
      showPreview();
      focusShip(ships.includes(this.activeShip) ? this.activeShip : ships[0]);
    };
    this.addTypeToggle(panel, controls, { refresh, load });
    if (draft && !load(draft)) {
      panel.typeOrder(draft);
    } else {
      showPreview();
    }
    focusShip(ships[0], chosen[ships[0]]);
  }

  buildTextOrder(panel, draft) {
    const scene = this.scene;
    const seat = panel.seat;
    const input = h("input", {
      type: "text",
      class: "order-text",
      name: `order-${seat}`,
      "aria-label": `Order for ${seat}`,
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "type the order, or use the buttons below",
    });
    const fire = this.fireOptionsFor(seat);
    // Firing nothing is an order too, so the line starts as "hold" rather than empty.
    input.value = draft || (fire ? "hold" : "");
    panel.text = () => input.value.trim();
    panel.input = input;
    const check = debounce(async () => {
      const text = input.value.trim();
      if (!text) {
        panel.status.className = "check";
        panel.status.textContent = "";
        return;
      }
      try {
        const res = await this.api.check(this.game, seat, text);
        if (input.value.trim() !== text) return;
        panel.status.className = "check ok";
        panel.status.textContent = `✓ ${res.canonical || text}`;
      } catch (err) {
        if (input.value.trim() !== text) return;
        panel.status.className = "check bad";
        panel.status.textContent = err.message;
      }
    }, CHECK_DELAY_MS);
    const edited = () => {
      check();
      this.saveDraft[seat](input.value);
    };
    input.addEventListener("input", edited);
    panel.edited = edited;
    panel.form.append(input);
    if (input.value) check();

    const helpers = h("div", { class: "helpers" });
    const help = (scene.prompt && scene.prompt.help) || "";
    panel.weaponText = weaponInsertion(help);
    const examples = h("div", { class: "examples" });
    helpers.append(examples);
    if (fire) {
      // "Clear (hold fire)" stands in for the help's examples, which only show the notation.
      this.buildFirePicker(panel, fire);
      return;
    }
    this.offerExamples(panel, help, examples);
    // The scene lists the legal shots itself; guessing from arcs is only for servers that do not.
    if ("fire_options" in scene) {
      panel.form.append(helpers);
      return;
    }
    // Weapons only help orders that name targets ("SHIP F>TARGET"), not e.g. an initiative choice.
    const arcs = !help || help.includes(">") ? scene.arcs || {} : {};
    for (const [ship, weapons] of Object.entries(arcs)) {
      const owner = this.ownerOf(ship);
      if (owner !== null && owner !== seat) continue;
      const counter = this.counter(ship);
      if (counter && counter.status && counter.status !== "active") continue;
      const group = h("div", { class: "weapon-group", dataset: { ship } }, h("span", { class: "weapon-ship" }, ship));
      for (const [weapon, hexes] of Object.entries(weapons)) {
        const targets = (scene.counters || []).filter((c) => c.side !== seat && hexes.includes(c.hex) && c.status === "active");
        group.append(
          h(
            "button",
            {
              type: "button",
              class: "helper weapon",
              "aria-pressed": "false",
              title: targets.length ? `in arc: ${targets.map((t) => t.id).join(", ")}` : "no target in arc",
              dataset: { ship, weapon, targets: targets.map((t) => t.id).join(",") },
              onclick: (ev) => this.armWeapon(panel, ship, weapon, hexes, ev.currentTarget),
            },
            weapon,
            targets.length ? h("span", { class: "in-arc" }, ` ${targets.length}`) : null,
          ),
        );
      }
      helpers.append(group);
    }
    panel.form.append(helpers);
    if (helpers.querySelector("button.weapon")) {
      panel.form.append(h("p", { class: "hint" }, "Pick a weapon to see its arc, then click a target on the map."));
    }
  }

  /** This seat's ships with legal shots now ({ship: [{weapon, target, piece}]}), or null. */
  fireOptionsFor(seat) {
    const all = this.scene.fire_options || {};
    const mine = Object.entries(all).filter(([ship, opts]) => {
      const owner = this.ownerOf(ship);
      return opts.length && (owner === seat || (owner === null && (this.scene.my_turn || []).length === 1));
    });
    return mine.length ? Object.fromEntries(mine) : null;
  }

  /**
   * Per ship: weapon buttons, then buttons for that weapon's legal targets (or a click on a
   * ringed counter); each adds its piece to the ship's entry in the order line, and the chosen
   * pieces are listed as buttons that remove themselves. The order line stays the one truth, so
   * typing and clicking mix freely and live validation covers both.
   */
  buildFirePicker(panel, fire) {
    const input = panel.input;
    const box = h("div", { class: "fire-picker" });
    const chosen = h("div", { class: "fire-chosen", "aria-live": "polite" });
    const rows = {};
    const showChosen = () => {
      const pieces = firePieces(input.value);
      const nodes = [h("span", { class: "fire-row-label" }, "Firing:")];
      let any = false;
      for (const [ship, list] of Object.entries(pieces)) {
        for (const [i, piece] of list.entries()) {
          any = true;
          nodes.push(
            h(
              "button",
              {
                type: "button",
                class: "piece",
                title: `remove ${piece} from ${ship}'s shots`,
                "aria-label": `Remove ${ship} ${piece}`,
                dataset: { ship, piece },
                onclick: () => {
                  const now = firePieces(input.value);
                  (now[ship] || []).splice(i, 1);
                  this.writeFire(panel, now);
                },
              },
              `${ship} ${piece}`,
              h("span", { class: "remove", "aria-hidden": "true" }, "×"),
            ),
          );
        }
      }
      if (any) {
        nodes.push(
          h(
            "button",
            { type: "button", class: "secondary clear-fire", onclick: () => this.writeFire(panel, {}) },
            "Clear (hold fire)",
          ),
        );
      } else {
        nodes.push(h("span", { class: "hint" }, "nothing: the order is hold"));
      }
      chosen.replaceChildren(...nodes);
    };
    panel.showChosen = showChosen;
    input.addEventListener("input", showChosen);
    for (const [ship, options] of Object.entries(fire)) {
      const counter = this.counter(ship);
      const targetRow = h("div", { class: "fire-row targets", hidden: true });
      rows[ship] = targetRow;
      const weaponRow = this.weaponRow(panel, ship, options, targetRow);
      const where = counter ? ` at ${counter.hex}` : "";
      box.append(h("fieldset", { class: "ship-fire", dataset: { ship } }, h("legend", {}, `${ship}${where}`), weaponRow, targetRow));
    }
    box.append(chosen);
    panel.form.append(box, h("p", { class: "hint" }, "Pick a weapon, then a target (a button, or a ringed counter on the map). Repeat a shot to fire it again."));
    showChosen();
    // With a single weapon there is nothing to choose: show its targets at once.
    const only = Object.entries(fire);
    if (only.length === 1 && new Set(only[0][1].map((o) => o.weapon)).size === 1) {
      box.querySelector("button.weapon").click();
    }
  }

  /** A ship's weapon buttons: each shows how many targets it has and, pressed, their buttons in `targetRow`. */
  weaponRow(panel, ship, options, targetRow) {
    const row = h("div", { class: "fire-row weapons" }, h("span", { class: "fire-row-label" }, "Weapon"));
    for (const weapon of [...new Set(options.map((o) => o.weapon))]) {
      const targets = [...new Set(options.filter((o) => o.weapon === weapon).map((o) => o.target))];
      row.append(
        h(
          "button",
          {
            type: "button",
            class: "helper weapon",
            "aria-pressed": "false",
            title: `can fire at ${targets.join(", ")}`,
            dataset: { ship, weapon, targets: targets.join(",") },
            onclick: (ev) => this.armFire(panel, ship, weapon, options, targetRow, ev.currentTarget),
          },
          weapon,
          h("span", { class: "in-arc" }, ` ${targets.length}`),
        ),
      );
    }
    return row;
  }

  armFire(panel, ship, weapon, options, targetRow, button) {
    for (const b of this.container.querySelectorAll("button.weapon")) b.setAttribute("aria-pressed", "false");
    for (const row of this.container.querySelectorAll(".fire-row.targets")) row.hidden = true;
    button.setAttribute("aria-pressed", "true");
    const shots = options.filter((o) => o.weapon === weapon);
    const arcs = (this.scene.arcs || {})[ship] || {};
    this.map.shade("arc", arcs[weapon] || [], "arc");
    this.map.mark(shots.map((o) => o.target));
    this.fireArmed = { panel, ship, shots };
    const perTarget = {};
    for (const o of shots) perTarget[o.target] = (perTarget[o.target] || 0) + 1;
    targetRow.replaceChildren(
      h("span", { class: "fire-row-label" }, "Target"),
      ...shots.map((o) =>
        h(
          "button",
          {
            type: "button",
            class: "helper target",
            title: `add ${o.piece}`,
            dataset: { ship, weapon, target: o.target, piece: o.piece },
            onclick: () => this.addPiece(panel, ship, o.piece),
          },
          // A target offered more than once (a gun count) is told apart by its piece.
          perTarget[o.target] > 1 ? `${o.target} · ${o.piece.replace(/>.*$/, "")}` : o.target,
        ),
      ),
    );
    targetRow.hidden = false;
  }

  addPiece(panel, ship, piece) {
    if (panel.addShot) {
      panel.addShot(ship, piece);
      return;
    }
    const pieces = firePieces(panel.input.value);
    pieces[ship] = [...(pieces[ship] || []), piece];
    this.writeFire(panel, pieces);
  }

  writeFire(panel, pieces) {
    panel.input.value = fireText(pieces);
    panel.edited();
    panel.showChosen();
  }

  /**
   * The help's quoted examples ("'hold'", "'blue first'") become one-click buttons, but only
   * those the server accepts for this seat now, so a button never offers an illegal order.
   */
  async offerExamples(panel, help, box) {
    const quoted = [...help.matchAll(/'([^']+)'/g)].map((m) => m[1].trim());
    for (const text of [...new Set(quoted)]) {
      try {
        await this.api.check(this.game, panel.seat, text);
      } catch {
        continue;
      }
      if (!this.container.contains(box)) return;
      box.append(
        h(
          "button",
          {
            type: "button",
            class: "helper example",
            dataset: { order: text },
            onclick: () => {
              panel.input.value = text;
              panel.edited();
              panel.input.focus();
            },
          },
          text,
        ),
      );
    }
  }

  armWeapon(panel, ship, weapon, hexes, button) {
    for (const b of this.container.querySelectorAll("button.weapon")) b.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-pressed", "true");
    this.map.shade("arc", hexes, "arc");
    this.armed = { panel, ship, weapon };
    const input = panel.input;
    const parts = entries(input.value);
    const at = parts.findIndex((p) => norm(p.split(" ")[0]) === norm(ship));
    const piece = panel.weaponText(weapon);
    if (at >= 0) parts[at] = `${parts[at]} ${piece}`;
    else parts.push(`${ship} ${piece}`);
    input.value = parts.filter((p) => norm(p) !== "hold").join("; ");
    panel.edited();
    input.focus();
  }

  /** A counter clicked on the map becomes the target of the armed weapon's entry. */
  pickTarget(shipId) {
    const fire = this.fireArmed;
    if (fire && this.container.contains(fire.panel.form)) {
      // A composer (one shot per laser) takes the weapon's next laser not yet firing at it.
      const taken = fire.panel.shotsOf ? fire.panel.shotsOf(fire.ship) : [];
      const matching = fire.shots.filter((o) => o.target === shipId);
      const shot = matching.find((o) => !taken.includes(o.piece)) || matching[0];
      if (!shot) return false;
      this.addPiece(fire.panel, fire.ship, shot.piece);
      return true;
    }
    const armed = this.armed;
    if (!armed || !this.container.contains(armed.panel.form)) return false;
    const input = armed.panel.input;
    const parts = entries(input.value);
    const at = parts.findIndex((p) => norm(p.split(" ")[0]) === norm(armed.ship));
    if (at < 0) return false;
    parts[at] = `${parts[at]}>${shipId}`;
    input.value = parts.join("; ");
    armed.panel.edited();
    input.focus();
    return true;
  }

  async commit(panel) {
    const text = panel.text();
    if (!text || panel.commit.disabled || panel.busy) return;
    panel.busy = true;
    panel.commit.disabled = true;
    panel.status.className = "check";
    panel.status.textContent = "Sending…";
    try {
      this.saveDraft[panel.seat].flush();
      const res = await this.api.submit(this.game, panel.seat, text, this.scene.step);
      this.armed = null;
      this.fireArmed = null;
      if (res && res.scene) this.onScene(res.scene);
    } catch (err) {
      panel.status.className = "check bad";
      panel.status.textContent = err.message;
      if (err.status === 409) {
        // Written for a moment that has passed: show the game as it is now.
        this.api.scene(this.game).then(this.onScene, this.onError);
      }
    } finally {
      panel.busy = false;
      panel.commit.disabled = false;
    }
  }
}
