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
    const block = h(
      "section",
      { class: "pending", dataset: { seat } },
      h("h3", {}, sideChip(seat, colours[seat]), " order sent"),
      h("p", { class: "pending-text" }, h("code", {}, text)),
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
    this.saveDraft[seat] = debounce((text) => {
      this.api.saveDraft(this.game, seat, text).catch(() => {
        // A lost draft only costs retyping; the order itself is never sent this way.
      });
    }, DRAFT_DELAY_MS);

    if (ships.length) {
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
      // Radio lists do not submit on Enter by themselves.
      if (ev.key === "Enter" && ev.target.type === "radio") {
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
    const focusShip = (ship, option) => {
      const options = scene.move_options[ship];
      this.map.shade(
        "reach",
        options.map((o) => (o.end || o.path[o.path.length - 1]).hex),
        "reach",
      );
      this.map.ghost(this.counter(ship) || { id: ship }, option || chosen[ship] || null, colour);
      this.activeShip = ship;
    };
    this.activePicker = { ships, chosen, focusShip, panel };
    for (const ship of ships) {
      const options = scene.move_options[ship];
      const counter = this.counter(ship);
      const list = h("div", { class: "options", role: "radiogroup", "aria-label": `Plots for ${ship}` });
      for (const [i, opt] of options.entries()) {
        const end = opt.end || opt.path[opt.path.length - 1];
        const short = opt.text.startsWith(`${ship} `) ? opt.text.slice(ship.length + 1) : opt.text;
        const id = `opt-${panel.seat}-${ship}-${i}`;
        const input = h("input", {
          type: "radio",
          name: `plot-${panel.seat}-${ship}`,
          id,
          value: opt.text,
          dataset: { ship, end: end.hex, facing: opt.facing || "" },
        });
        if (draftEntries.includes(norm(opt.text))) {
          input.checked = true;
          chosen[ship] = opt;
        }
        input.addEventListener("change", () => {
          chosen[ship] = opt;
          focusShip(ship, opt);
          showPreview();
          this.saveDraft[panel.seat](panel.text());
        });
        input.addEventListener("focus", () => {
          focusShip(ship, chosen[ship]);
          if (counter) this.map.ensureVisible(counter.hex, counter.altitude);
        });
        const label = h(
          "label",
          { for: id, class: "option", dataset: { end: end.hex } },
          input,
          h("span", { class: "opt-text" }, short),
          h("span", { class: "opt-end" }, `→ ${end.hex}${end.altitude ? ` alt ${end.altitude}` : ""}${opt.facing ? ` ${opt.facing}` : ""}`),
        );
        label.addEventListener("mouseenter", () => focusShip(ship, opt));
        label.addEventListener("mouseleave", () => focusShip(ship, chosen[ship]));
        list.append(label);
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
  }

  /** Clicking a reachable hex picks the plot ending there (clicking again cycles through them). */
  pickHex(hex) {
    const picker = this.activePicker;
    if (!picker || !this.activeShip || !this.container.contains(picker.panel.form)) return false;
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
      const weapons = [...new Set(options.map((o) => o.weapon))];
      const weaponRow = h("div", { class: "fire-row weapons" }, h("span", { class: "fire-row-label" }, "Weapon"));
      const targetRow = h("div", { class: "fire-row targets", hidden: true });
      rows[ship] = targetRow;
      for (const weapon of weapons) {
        const targets = [...new Set(options.filter((o) => o.weapon === weapon).map((o) => o.target))];
        weaponRow.append(
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
      const shot = fire.shots.find((o) => o.target === shipId);
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
