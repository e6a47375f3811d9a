// Replay: the game page's scrubber over the resolved order batches. Step by step with ◀ ▶ and
// the arrow keys, turn by turn with ◀◀ ▶▶ and Page Up / Page Down, each position labelled with
// the clock of the last batch shown. While it is open the page is in "replay" mode, and the map
// draws each ship's trail and the shots of the turn shown (toggled in the bar; map/tracks.js).

const $ = (id) => document.getElementById(id);

export class Replay {
  /**
   * `latest()` is the newest live scene (or null); `show(scene)` draws a replayed one;
   * `onExit()` goes back to the live game; `onError(err)` reports a failed request.
   */
  constructor(api, game, { latest, show, onExit, onError }) {
    this.api = api;
    this.game = game;
    this.latest = latest;
    this.show = show;
    this.onExit = onExit;
    this.onError = onError;
    this.mode = "live"; // or "replay"
    this.step = 0;
    // Each resolved batch's clock ({step, clock, turn, segment}); fetched when replay opens and
    // again whenever the live game has moved past it.
    this.timeline = [];
    // At most one replay request is in flight: a held arrow key or a dragged slider asks for many
    // steps, each replayed from the start on the server, and only the last one is worth drawing.
    this.wanted = 0;
    this.fetching = false;
    this.listen();
  }

  listen() {
    $("replay-toggle").addEventListener("click", () => (this.mode === "live" ? this.enter() : this.exit()));
    $("replay-exit").addEventListener("click", () => this.exit());
    for (const id of ["replay-trails", "replay-shots"]) {
      $(id).addEventListener("change", () => this.shown && this.show(this.shown));
    }
    $("replay-step").addEventListener("input", (ev) => this.go(Number(ev.target.value)));
    $("replay-prev").addEventListener("click", () => this.go(this.step - 1));
    $("replay-next").addEventListener("click", () => this.go(this.step + 1));
    $("replay-prev-turn").addEventListener("click", () => this.jumpTurn(-1));
    $("replay-next-turn").addEventListener("click", () => this.jumpTurn(1));
    $("replay-step").addEventListener("keydown", (ev) => {
      // Page keys move a turn at a time (the slider's own big steps mean nothing in a game).
      if (ev.key === "PageUp" || ev.key === "PageDown") {
        ev.preventDefault();
        this.jumpTurn(ev.key === "PageDown" ? 1 : -1);
      }
    });
  }

  /** What the map draws over a replayed scene: {trails, shots}, from the bar's check boxes. */
  layers() {
    return { trails: $("replay-trails").checked, shots: $("replay-shots").checked };
  }

  /** A new live scene arrived: the slider reaches it, and while replaying the labels learn of it. */
  liveMoved(scene) {
    $("replay-step").max = String(scene.step);
    if (this.mode === "replay") this.refreshTimeline();
  }

  async refreshTimeline() {
    const live = this.latest();
    if (live && this.timeline.length >= live.step) return;
    try {
      this.timeline = (await this.api.timeline(this.game)).steps || [];
    } catch (err) {
      this.onError(err);
    }
    this.updateLabel();
  }

  /** Words for the moment replay step `step` shows: the position after that many batches. */
  momentOf(step) {
    if (step === 0) return "before the first order";
    const batch = this.timeline[step - 1];
    return batch ? `after ${batch.clock}` : "";
  }

  updateLabel() {
    const live = this.latest();
    const moment = this.momentOf(this.step);
    $("replay-label").textContent = `${this.step} / ${live ? live.step : 0}${moment ? ` · ${moment}` : ""}`;
  }

  /** Steps at which a turn begins (the first batch of each turn), and the end of the game so far. */
  turnStarts() {
    const timeline = this.timeline;
    const live = this.latest();
    const starts = [0];
    for (let s = 1; s < timeline.length; s++) {
      if (timeline[s].turn !== timeline[s - 1].turn) starts.push(s);
    }
    starts.push(live ? live.step : timeline.length);
    return starts;
  }

  jumpTurn(direction) {
    const starts = this.turnStarts();
    const target =
      direction > 0 ? starts.find((s) => s > this.step) : [...starts].reverse().find((s) => s < this.step);
    if (target !== undefined) this.go(target);
  }

  async go(step) {
    const live = this.latest();
    this.step = Math.max(0, Math.min(step, live ? live.step : 0));
    $("replay-step").value = String(this.step);
    this.updateLabel();
    this.wanted = this.step;
    if (this.fetching) return; // the request in flight fetches this step next
    this.fetching = true;
    try {
      while (this.mode === "replay") {
        const asked = this.wanted;
        const scene = await this.api.replay(this.game, asked);
        if (this.mode !== "replay") break;
        if (asked !== this.wanted) continue; // moved on meanwhile: fetch only the newest
        document.body.dataset.replayStep = String(asked);
        this.shown = scene;
        this.show(scene);
        break;
      }
    } catch (err) {
      this.onError(err);
    } finally {
      this.fetching = false;
    }
  }

  enter() {
    const live = this.latest();
    if (!live) return;
    this.mode = "replay";
    document.body.dataset.mode = "replay";
    $("replay-bar").hidden = false;
    $("replay-toggle").setAttribute("aria-pressed", "true");
    $("replay-step").max = String(live.step);
    this.go(live.result ? 0 : live.step);
    this.refreshTimeline();
    $("replay-step").focus();
  }

  exit() {
    this.mode = "live";
    document.body.dataset.mode = "live";
    delete document.body.dataset.replayStep;
    $("replay-bar").hidden = true;
    $("replay-toggle").setAttribute("aria-pressed", "false");
    this.onExit();
  }
}
