// The orders panel's shell: which sides owe orders and which form each gets (the AV:T composer,
// the plain move picker, or the order line), sent orders waiting for the others, the commit and
// the drafts kept on the server while the player edits, and the map clicks the forms take (a
// shaded hex picks a plot, a ringed counter a target). The forms are in the modules beside it.

import { h, sideChip, sideColours } from "../dom.js";
import { aimArmed } from "./arc-weapons.js";
import { Composer } from "./composer.js";
import { buildMovePicker } from "./move-picker.js";
import { pendingBlock } from "./pending.js";
import { flowBlock } from "./flow.js";
import { buildSetupPanel } from "./setup-panel.js";
import { debounce } from "./text.js";
import { ghostColour } from "./warnings.js";
import { buildTextOrder } from "./text-order.js";
import { composesWhole, VmsComposer } from "./vms-composer.js";

const DRAFT_DELAY_MS = 500;
const CHECK_DELAY_MS = 250;

/**
 * One side's form. The form built into it sets `text()` (the order as it stands) and, as it
 * needs them, `typed` (the typed line is showing), `typeOrder(text)`, `input` and `edited()` (the
 * order line), `addShot(ship, piece)` and `shotsOf(ship)` (the shots chosen so far).
 */
class SideForm {
  constructor(side, colour) {
    this.side = side;
    this.form = h("form", { class: "side-orders", dataset: { side }, novalidate: true });
    this.status = h("p", { class: "check", role: "status", "aria-live": "polite" });
    this.commit = h("button", { type: "submit", class: "commit" }, `Commit ${side}'s orders`);
    this.form.append(h("h3", {}, sideChip(side, colour), " orders"));
    this.text = () => "";
    this.typed = false;
    this.busy = false;
    // How many times the status line has been written: a live check only writes its answer over
    // what was there when it asked (a slow answer must not hide "Not sent" or an error).
    this.said = 0;
  }

  /** The status line: `kind` "ok", "bad" or "" (neutral). */
  say(kind, text) {
    this.said += 1;
    this.status.className = kind ? `check ${kind}` : "check";
    this.status.textContent = text;
  }
}

/**
 * Holding fire with a target in arc is asked about once per prompt: an order that names none of
 * the side's legal shots while some exist needs a yes before it is sent.
 */
function confirmHold(shell, panel, text) {
  const fire = shell.fireOptionsFor(panel.side);
  // A running tutorial checks every order itself and says when to hold: no second voice.
  const tutoring = document.querySelector("#tutorial:not([data-finished=true])");
  if (!fire || panel.holdConfirmed || tutoring) return true;
  const shots = Object.values(fire).flat();
  const said = text.toLowerCase();
  if (shots.some((o) => said.includes(o.piece.toLowerCase()))) return true;
  const ships = Object.keys(fire);
  const ok = window.confirm(`Hold fire? ${ships.join(", ")} ${ships.length > 1 ? "have" : "has"} a target in arc.`);
  // Asked once a prompt: after a "no", the next commit of a hold goes through (the status line says so).
  panel.holdConfirmed = true;
  if (!ok) panel.say("", "Not sent: pick a weapon and a target, or commit again to hold fire.");
  return ok;
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
    this.sidePanels = [];
    this.saveDraft = {}; // side -> debounced save of its draft
    // Set by the forms: the plot lists a hex click picks from, the ship whose plots are shown,
    // the weapon whose targets are ringed (`fireArmed`), a weapon guessed from arcs (`armed`).
    this.activePicker = null;
    this.activeShip = null;
    this.fireArmed = null;
    this.armed = null;
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

  /** Nothing drawn on the map for orders: no ghost, reach, arc or ringed targets. */
  clearMap() {
    this.fireArmed = null;
    this.map.mark([]);
    this.map.ghost(null);
    this.map.shade("reach", [], "reach");
    this.map.shade("arc", [], "arc");
  }

  clear() {
    this.key = "";
    this.sidePanels = [];
    this.clearMap();
    this.container.replaceChildren();
  }

  /** Put an armed weapon away: its arc and rings go, its buttons in `scope` are released. */
  disarm(scope) {
    this.fireArmed = null;
    this.map.mark([]);
    this.map.shade("arc", [], "arc");
    for (const b of scope.querySelectorAll("button.weapon")) b.setAttribute("aria-pressed", "false");
  }

  ownerOf(shipId) {
    const c = this.counter(shipId);
    return c ? c.side : null;
  }

  counter(shipId) {
    return (this.scene.counters || []).find((x) => x.id === shipId) || null;
  }

  /** Whether `ship` is `side`'s (a ship without a counter is, when one side alone is to act). */
  ordersShip(side, ship) {
    const owner = this.ownerOf(ship);
    return owner === side || (owner === null && (this.scene.my_turn || []).length === 1);
  }

  build() {
    const scene = this.scene;
    const clock = scene.prompt ? scene.prompt.clock : null;
    // Another side's commit rebuilds the panel (hot-seat); what this side was editing survives it.
    this.carried = {};
    if (clock === this.lastClock) {
      for (const p of this.sidePanels) {
        const text = p.text();
        if (text) this.carried[p.side] = text;
      }
    }
    this.lastClock = clock;
    this.clearMap();
    this.sidePanels = [];
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
    // A set-up panel explains itself with its buttons; the help line is for the typed notation.
    const setup = scene.setup || {};
    if (scene.prompt.help && !mine.some((s) => setup[s])) nodes.push(h("p", { class: "prompt-help" }, scene.prompt.help));
    for (const side of viewer) {
      if (pending[side] !== undefined && !mine.includes(side)) {
        nodes.push(pendingBlock(scene, side, pending[side], colours, () => this.takeBack(side)));
      } else if (mine.includes(side)) {
        nodes.push(this.sideForm(side, colours));
        // Beside the form, not in it: its controls must not be read as part of the order.
        const flow = setup[side] ? null : flowBlock(this, this.sidePanels[this.sidePanels.length - 1]);
        if (flow) nodes.push(flow);
      }
    }
    if (!nodes.some((n) => n.classList && (n.classList.contains("side-orders") || n.classList.contains("pending")))) {
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

  async takeBack(side) {
    try {
      await this.api.withdraw(this.game, side);
      const fresh = await this.api.scene(this.game);
      this.onScene(fresh);
    } catch (err) {
      this.onError(err);
    }
  }

  sideForm(side, colours) {
    const scene = this.scene;
    const ships = Object.keys(scene.move_options || {}).filter((id) => this.ordersShip(side, id));
    const draft = this.carried[side] || (scene.drafts || {})[side] || "";
    const panel = new SideForm(side, colours[side]);
    const step = scene.step;
    this.saveDraft[side] = debounce((text) => {
      this.api.saveDraft(this.game, side, text, step).catch(() => {
        // A lost draft only costs retyping; the order itself is never sent this way.
      });
    }, DRAFT_DELAY_MS);

    const setup = (scene.setup || {})[side];
    if (setup) {
      buildSetupPanel(this, panel, setup, draft);
    } else if (ships.length && composesWhole(scene, ships)) {
      new VmsComposer(this, panel, ships, draft, colours[side]);
    } else if (ships.length && this.composes(ships)) {
      new Composer(this, panel, ships, draft, colours[side]);
    } else if (ships.length) {
      buildMovePicker(this, panel, ships, draft, colours[side]);
    } else {
      buildTextOrder(this, panel, draft);
    }
    const form = panel.form;
    // The status line and Commit stay in view at the foot of the panel however long the form is
    // (a VMS menu of a hundred plots): composer.css `.orders-footer`.
    const actions = h("div", { class: "actions" }, panel.commit, h("span", { class: "kbd-hint" }, "Enter commits"));
    form.append(h("div", { class: "orders-footer" }, panel.status, actions));
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
    this.sidePanels.push(panel);
    return form;
  }

  /**
   * Whether the side's ships get the composer: a ship that moves and, in the same entry, may
   * also fire or add other actions (`order_pieces`, AV:T's pivots, rolls, bias...).
   */
  composes(ships) {
    const fire = this.scene.fire_options || {};
    const pieces = this.scene.order_pieces || {};
    return ships.some((s) => (fire[s] || []).length || (pieces[s] || []).length);
  }

  /** This side's ships with legal shots now ({ship: [{weapon, target, piece}]}), or null. */
  fireOptionsFor(side) {
    const all = this.scene.fire_options || {};
    const mine = Object.entries(all).filter(([ship, opts]) => opts.length && this.ordersShip(side, ship));
    return mine.length ? Object.fromEntries(mine) : null;
  }

  /** Shade `ship`'s reachable hexes and draw `option`'s ghost (none: the ship as it is). */
  focusPlot(ship, option, colour) {
    const options = this.scene.move_options[ship];
    this.map.shade(
      "reach",
      options.map((o) => (o.end || o.path[o.path.length - 1]).hex),
      "reach",
    );
    // A plot that leaves the board or ends on a hazard is drawn in the warning colour.
    this.map.ghost(this.counter(ship) || { id: ship }, option, ghostColour(option, colour));
    this.activeShip = ship;
  }

  /**
   * A debounced live check of `textOf()` into the panel's status while `live()` says it is shown.
   * Its answer is written only if nothing was said since the check was asked for: a commit clicked
   * while the check still waits (its "Not sent" or "Sending…") must not be written over.
   */
  liveCheck(panel, textOf, live) {
    const run = debounce(async (said) => {
      const text = textOf();
      const current = () => live() && textOf() === text && panel.said === said;
      if (!current()) return;
      if (!text) {
        panel.say("", "");
        return;
      }
      try {
        const res = await this.api.check(this.game, panel.side, text);
        if (current()) panel.say("ok", `✓ ${res.canonical || text}`);
      } catch (err) {
        if (current()) panel.say("bad", err.message);
      }
    }, CHECK_DELAY_MS);
    const check = () => run(panel.said);
    check.flush = run.flush;
    return check;
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
   * A counter clicked on the map becomes a target of the armed weapon; with no weapon armed, a
   * target's "every weapon at" buttons are brought into view and the first is focused.
   */
  pickTarget(shipId) {
    const fire = this.fireArmed;
    if (fire && this.container.contains(fire.panel.form)) {
      // The first shot at that target the rules still allow (a mount's next laser not yet firing).
      if (!fire.shots.some((o) => o.target === shipId)) return false;
      fire.aim(shipId);
      return true;
    }
    if (aimArmed(this, shipId)) return true;
    const volleys = [...this.container.querySelectorAll(`button.target-all[data-target="${CSS.escape(shipId)}"]`)].filter(
      (b) => b.offsetParent !== null,
    );
    if (!volleys.length) return false;
    for (const b of this.container.querySelectorAll("button.target-all.picked")) b.classList.remove("picked");
    for (const b of volleys) b.classList.add("picked");
    const first = volleys.find((b) => !b.disabled) || volleys[0];
    first.scrollIntoView({ block: "nearest" });
    first.focus({ preventScroll: true });
    return true;
  }

  async commit(panel) {
    const text = panel.text();
    if (!text || panel.commit.disabled || panel.busy) return;
    if (!confirmHold(this, panel, text)) return;
    panel.busy = true;
    panel.commit.disabled = true;
    panel.say("", "Sending…");
    try {
      this.saveDraft[panel.side].flush();
      const res = await this.api.submit(this.game, panel.side, text, this.scene.step);
      this.armed = null;
      this.fireArmed = null;
      if (res && res.scene) this.onScene(res.scene);
    } catch (err) {
      panel.say("bad", err.message);
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
