// Hot-seat hand-over: one browser holding several sides at a secret (simultaneous) prompt. Only
// one side orders at a time, and whenever the side to act changes a full-panel screen covers the
// map and the orders ("Pass to blue — press Ready") until the next player says they are ready,
// so nobody sees what the side before them plotted. Open prompts (one side after another, in
// view of all) need no hand-over.

import { sideColours } from "./dom.js";

export class HandOver {
  /**
   * `overlay` is the covering element; `covered` the elements made inert under it; `onReady`
   * is called with the side once its player presses Ready.
   */
  constructor(overlay, { covered = [], onReady } = {}) {
    this.overlay = overlay;
    this.covered = covered;
    this.onReady = onReady || (() => {});
    this.sideEl = overlay.querySelector(".handover-side");
    this.note = overlay.querySelector(".handover-note");
    this.button = overlay.querySelector("#handover-ready");
    this.lastActor = null; // the side whose player last had the screen
    this.waitingFor = null; // the side the overlay is asking for
    this.button.addEventListener("click", () => this.ready());
    // Enter or Space anywhere while the screen is up; a held key's repeats are ignored, so the
    // Enter that committed the previous side's orders cannot also wave the next one through.
    document.addEventListener(
      "keydown",
      (ev) => {
        if (this.overlay.hidden) return;
        if (ev.key !== "Enter" && ev.key !== " ") return;
        ev.preventDefault();
        ev.stopPropagation();
        if (!ev.repeat) this.ready();
      },
      true,
    );
  }

  /**
   * The side that orders now on this screen, or null when there is no hand-over to manage (a
   * single side, an open prompt, a replay, the game over). Shows the screen when it changes.
   */
  update(scene, mode) {
    const viewer = scene.viewer || [];
    const prompt = scene.prompt;
    const mine = scene.my_turn || [];
    if (mode !== "live" || !prompt || scene.result || viewer.length < 2 || !mine.length) {
      this.hide();
      return null;
    }
    const acting = mine[0];
    if (!prompt.simultaneous) {
      // In view of everyone: no secret to keep, but it is this side's player at the screen now.
      this.hide();
      this.lastActor = acting;
      return null;
    }
    if (acting !== this.lastActor) this.show(acting, scene);
    else if (this.waitingFor && this.waitingFor !== acting) this.hide();
    return acting;
  }

  get shown() {
    return !this.overlay.hidden;
  }

  show(side, scene) {
    const colours = sideColours(scene);
    const sent = Object.keys(scene.pending || {}).filter((s) => s !== side);
    this.sideEl.textContent = side;
    this.sideEl.style.setProperty("--side", colours[side] || "#888");
    this.note.textContent =
      `${side} gives secret orders now: only ${side}'s player should look at the screen.` +
      (sent.length ? ` ${sent.join(" and ")} ${sent.length > 1 ? "have" : "has"} sent theirs, hidden until all are in.` : "");
    this.overlay.dataset.side = side;
    document.body.dataset.handover = side;
    const wasShown = this.shown;
    this.waitingFor = side;
    this.overlay.hidden = false;
    for (const el of this.covered) el.inert = true;
    if (!wasShown || document.activeElement !== this.button) this.button.focus({ preventScroll: true });
  }

  hide() {
    if (this.overlay.hidden) return;
    this.overlay.hidden = true;
    this.waitingFor = null;
    delete this.overlay.dataset.side;
    delete document.body.dataset.handover;
    for (const el of this.covered) el.inert = false;
  }

  ready() {
    const side = this.waitingFor;
    if (!side) return;
    this.lastActor = side;
    this.hide();
    this.onReady(side);
  }
}
