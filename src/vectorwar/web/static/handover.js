// Hot-seat hand-over: one browser holding several seats at a secret (simultaneous) prompt. Only
// one seat orders at a time, and whenever the seat to act changes a full-panel screen covers the
// map and the orders ("Pass to blue — press Ready") until the next player says they are ready,
// so nobody sees what the seat before them plotted. Open prompts (one seat after another, in
// view of all) need no hand-over.

import { sideColours } from "./dom.js";

export class HandOver {
  /**
   * `overlay` is the covering element; `covered` the elements made inert under it; `onReady`
   * is called with the seat once its player presses Ready.
   */
  constructor(overlay, { covered = [], onReady } = {}) {
    this.overlay = overlay;
    this.covered = covered;
    this.onReady = onReady || (() => {});
    this.seatEl = overlay.querySelector(".handover-seat");
    this.note = overlay.querySelector(".handover-note");
    this.button = overlay.querySelector("#handover-ready");
    this.lastActor = null; // the seat whose player last had the screen
    this.waitingFor = null; // the seat the overlay is asking for
    this.button.addEventListener("click", () => this.ready());
    // Enter or Space anywhere while the screen is up; a held key's repeats are ignored, so the
    // Enter that committed the previous seat's orders cannot also wave the next one through.
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
   * The seat that orders now on this screen, or null when there is no hand-over to manage (a
   * single seat, an open prompt, a replay, the game over). Shows the screen when it changes.
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
      // In view of everyone: no secret to keep, but it is this seat's player at the screen now.
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

  show(seat, scene) {
    const colours = sideColours(scene);
    const sent = Object.keys(scene.pending || {}).filter((s) => s !== seat);
    this.seatEl.textContent = seat;
    this.seatEl.style.setProperty("--side", colours[seat] || "#888");
    this.note.textContent =
      `${seat} gives secret orders now: only ${seat}'s player should look at the screen.` +
      (sent.length ? ` ${sent.join(" and ")} ${sent.length > 1 ? "have" : "has"} sent theirs, hidden until all are in.` : "");
    this.overlay.dataset.seat = seat;
    document.body.dataset.handover = seat;
    const wasShown = this.shown;
    this.waitingFor = seat;
    this.overlay.hidden = false;
    for (const el of this.covered) el.inert = true;
    if (!wasShown || document.activeElement !== this.button) this.button.focus({ preventScroll: true });
  }

  hide() {
    if (this.overlay.hidden) return;
    this.overlay.hidden = true;
    this.waitingFor = null;
    delete this.overlay.dataset.seat;
    delete document.body.dataset.handover;
    for (const el of this.covered) el.inert = false;
  }

  ready() {
    const seat = this.waitingFor;
    if (!seat) return;
    this.lastActor = seat;
    this.hide();
    this.onReady(seat);
  }
}
