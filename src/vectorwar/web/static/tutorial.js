// The tutorial panel of a game started from the lobby's "Learn to play" (the page's `?tutorial=ID`).
// It shows the current step, rings the controls the step names (or the orders panel when none is
// on the page) and what to look at, and puts every order through the server's tutorial check
// before it is sent: an illegal order is explained in the rules' words and a legal but different
// one in the step's; neither is sent. After each step it says what happened.

import { ApiError } from "./api.js";
import { h } from "./dom.js";

const SPOT = "tutorial-spot";
const LOOK = "tutorial-look";

function tutorialParam(loc = window.location) {
  return new URLSearchParams(loc.search).get("tutorial");
}

export class TutorialPanel {
  constructor(api, game, id, side) {
    this.api = api;
    this.game = game;
    this.id = id;
    this.data = null;
    this.index = null;
    this.lastStep = null;
    this.happened = "";
    this.box = h("section", { id: "tutorial", class: "tutorial-panel", "aria-live": "polite", "aria-label": "Tutorial" });
    side.prepend(this.box);
    this.observer = new MutationObserver(() => this.mark());
    this.guard(api);
  }

  path(tail = "") {
    return `/api/games/${encodeURIComponent(this.game)}/tutorial/${encodeURIComponent(this.id)}${tail}`;
  }

  /** Every order goes through the tutorial's check first; one it does not expect is not sent. */
  guard(api) {
    const send = api.submit.bind(api);
    api.submit = async (game, side, text, step) => {
      if (this.data && this.index !== null && this.index < this.data.steps.length) {
        const verdict = await api.request("POST", this.path("/check"), { side, text });
        if (!verdict.ok) {
          this.explain(verdict);
          throw new ApiError(400, { error: { type: "Tutorial", message: verdict.message } });
        }
        this.happened = verdict.kind === "expected" ? verdict.message : "";
      }
      this.explain(null);
      return send(game, side, text, step);
    };
  }

  async start() {
    try {
      this.data = await this.api.request("GET", `/api/tutorials/${encodeURIComponent(this.id)}`);
    } catch (err) {
      this.box.replaceChildren(h("p", { class: "hint" }, `This tutorial could not be loaded: ${err.message}`));
      return;
    }
    this.observer.observe(document.querySelector(".side") || document.body, { childList: true, subtree: true });
    await this.refresh();
  }

  /** Called with every scene drawn: a new step means asking the server how far the learner is. */
  update(scene) {
    if (!this.data || scene.step === this.lastStep) return;
    this.lastStep = scene.step;
    this.refresh();
  }

  async refresh() {
    let where;
    try {
      where = await this.api.request("GET", this.path());
    } catch (err) {
      this.explain({ kind: "error", message: err.message });
      return;
    }
    const moved = this.index !== null && where.index !== this.index;
    if (!moved && this.index !== null) return;
    if (moved && !this.happened) this.happened = this.data.steps[this.index] ? this.data.steps[this.index].after : "";
    this.index = where.index;
    this.render();
  }

  render() {
    const { data, index } = this;
    const total = data.steps.length;
    const step = data.steps[index];
    const parts = [h("h2", { class: "tutorial-title" }, data.title)];
    if (this.happened) {
      parts.push(h("div", { class: "tutorial-happened" }, h("strong", {}, "What happened: "), this.happened));
    }
    if (step) {
      if (index === 0) parts.push(h("p", { class: "tutorial-intro" }, data.intro));
      parts.push(
        h("p", { class: "tutorial-count" }, `Step ${index + 1} of ${total}`),
        h("p", { class: "tutorial-step", dataset: { step: String(index + 1) } }, step.text),
      );
    } else {
      parts.push(h("p", { class: "tutorial-done" }, h("strong", {}, "Tutorial complete. "), data.done));
    }
    parts.push(h("div", { class: "tutorial-explain", role: "alert", hidden: true }));
    this.box.dataset.index = String(index);
    this.box.dataset.finished = step ? "false" : "true";
    this.box.replaceChildren(...parts);
    this.happened = "";
    this.mark();
  }

  /** Why an order was not sent (null: clear it). */
  explain(verdict) {
    const box = this.box.querySelector(".tutorial-explain");
    if (!box) return;
    box.hidden = !verdict;
    box.className = verdict ? `tutorial-explain ${verdict.kind}` : "tutorial-explain";
    if (!verdict) return box.replaceChildren();
    const lead = verdict.kind === "illegal" ? "The rules refuse that: " : "Not quite: ";
    box.replaceChildren(h("strong", {}, lead), verdict.message);
  }

  /** Ring the step's controls and what it asks to look at; fall back to the panels that hold them. */
  mark() {
    this.observer.disconnect();
    for (const el of document.querySelectorAll(`.${SPOT}, .${LOOK}`)) el.classList.remove(SPOT, LOOK);
    const step = this.data && this.data.steps[this.index];
    if (step) {
      const found = step.highlight.flatMap((sel) => safeAll(sel));
      if (found.length) found.forEach((el) => el.classList.add(SPOT));
      else document.getElementById("panel-orders")?.classList.add(SPOT);
      if (step.look) {
        // The AVID or an arc diagram may sit on a tab not showing: then the tab is ringed too.
        const seen = safeAll(step.look);
        seen.forEach((el) => el.classList.add(LOOK));
        if (!seen.some((el) => el.getClientRects().length)) {
          // Ring the tab that holds it (the AVID has its own); only when it is on no tab, the step's fallback.
          const tabs = seen.map((el) => el.closest("[role=tabpanel]")?.getAttribute("aria-labelledby")).filter(Boolean);
          const rings = tabs.length ? tabs.map((id) => document.getElementById(id)).filter(Boolean) : safeAll(step.look_fallback);
          rings.forEach((el) => el.classList.add(LOOK));
        }
      }
    }
    this.observer.observe(document.querySelector(".side") || document.body, { childList: true, subtree: true });
  }
}

function safeAll(selector) {
  try {
    return [...document.querySelectorAll(selector)];
  } catch {
    return [];
  }
}

/** The page's tutorial, when it was opened for one; null otherwise. */
export function setupTutorial(api, game) {
  const id = tutorialParam();
  const side = document.querySelector(".side");
  if (!id || !game || !side) return null;
  document.body.classList.add("in-tutorial");
  const panel = new TutorialPanel(api, game, id, side);
  panel.start();
  return panel;
}
