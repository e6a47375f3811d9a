// Ending a game before the rules do: a side concedes, or offers to end it as a draw, which every
// other side must accept (docs/web.md, "Ending a game"). Each step asks for a confirmation first.
// An open offer and what came of the last one show to every viewer, spectators too; a hot-seat
// screen holding several sides offers the buttons of each.

import { rememberToken } from "./api.js";
import { h, fill, sideChip, sideColours } from "./dom.js";

function list(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export class EndingPanel {
  /** `onScene(scene)`: the caller's scene after a request; `onError(err)`: a refusal. */
  constructor(container, { api, game, onScene, onError }) {
    this.el = container;
    this.api = api;
    this.game = game;
    this.onScene = onScene;
    this.onError = onError;
    this.scene = null;
    this.mode = "live";
    this.confirming = null; // { what: "concede" | "offer", side } awaiting "yes"
    this.busy = false;
    this.key = "";
  }

  update(scene, mode) {
    this.scene = scene;
    this.mode = mode;
    if (scene.result) this.confirming = null;
    this.render();
  }

  render() {
    const scene = this.scene;
    const key = JSON.stringify([
      this.mode,
      scene && scene.viewer,
      scene && Boolean(scene.result),
      scene && scene.end_offer,
      scene && scene.end_note,
      scene && scene.rematch,
      this.confirming,
      this.busy,
    ]);
    if (key === this.key) return;
    this.key = key;
    if (scene && this.mode === "live" && scene.result && (scene.viewer || []).length) {
      this.el.hidden = false;
      fill(this.el, this.rematchBox(scene));
      return;
    }
    if (!scene || this.mode !== "live" || scene.result) {
      this.el.hidden = true;
      this.el.replaceChildren();
      return;
    }
    const colours = sideColours(scene);
    const viewer = scene.viewer || [];
    const offer = scene.end_offer;
    const parts = [];
    if (offer) parts.push(this.offerBox(offer, viewer, colours));
    else if (scene.end_note) parts.push(h("p", { class: "ending-note" }, scene.end_note));
    if (this.confirming) parts.push(this.confirmBox(scene, colours));
    else if (viewer.length) parts.push(this.actions(viewer, offer, colours));
    this.el.hidden = !parts.length;
    fill(this.el, ...parts);
  }

  offerBox(offer, viewer, colours) {
    const waiting = offer.waiting || [];
    const mine = waiting.filter((s) => viewer.includes(s));
    const several = viewer.length > 1;
    const answers = mine.flatMap((side) => [
      h(
        "button",
        { type: "button", class: "ending-accept", dataset: { side }, disabled: this.busy, onclick: () => this.send("end-offer", side) },
        several ? `Accept as ${side}` : "Accept the draw",
      ),
      h(
        "button",
        { type: "button", class: "secondary ending-decline", dataset: { side }, disabled: this.busy, onclick: () => this.send("end-offer/decline", side) },
        several ? `Decline as ${side}` : "Decline",
      ),
    ]);
    const ownOffer = !mine.length && viewer.includes(offer.by);
    return h(
      "div",
      { class: "ending-offer", role: "status" },
      h("p", {}, sideChip(offer.by, colours[offer.by]), " offers to end the game as a draw. ", `Waiting for ${list(waiting)}.`),
      answers.length ? h("p", { class: "ending-buttons" }, ...answers) : null,
      ownOffer
        ? h(
            "p",
            { class: "ending-buttons" },
            h(
              "button",
              { type: "button", class: "secondary ending-withdraw", disabled: this.busy, onclick: () => this.send("end-offer/decline", offer.by) },
              "Withdraw the offer",
            ),
          )
        : null,
    );
  }

  actions(viewer, offer, colours) {
    const several = viewer.length > 1;
    const rows = viewer.map((side) =>
      h(
        "p",
        { class: "ending-buttons", dataset: { side } },
        several ? sideChip(side, colours[side]) : null,
        h("button", { type: "button", class: "secondary ending-concede", dataset: { side }, onclick: () => this.ask("concede", side) }, "Concede…"),
        offer
          ? null
          : h("button", { type: "button", class: "secondary ending-offer-button", dataset: { side }, onclick: () => this.ask("offer", side) }, "Offer a draw…"),
      ),
    );
    return h("details", { class: "ending-actions" }, h("summary", {}, "End the game…"), ...rows);
  }

  confirmBox(scene, colours) {
    const { what, side } = this.confirming;
    const others = (scene.sides || []).map((s) => s.name).filter((s) => s !== side);
    const question =
      what === "concede"
        ? `concede the game? ${list(others)} ${others.length > 1 ? "win" : "wins"}, and the game is over.`
        : `offer to end the game as a draw? It ends when ${list(others)} ${others.length > 1 ? "agree" : "agrees"}.`;
    const path = what === "concede" ? "concede" : "end-offer";
    return h(
      "div",
      { class: "ending-confirm", role: "alertdialog", "aria-label": what === "concede" ? "Confirm the concession" : "Confirm the offer" },
      // The side's chip names who is asked: "red: concede the game? …".
      h("p", {}, sideChip(side, colours[side]), `: ${question}`),
      h(
        "p",
        { class: "ending-buttons" },
        h(
          "button",
          { type: "button", class: "ending-yes", disabled: this.busy, onclick: () => this.send(path, side) },
          what === "concede" ? "Yes, concede" : "Yes, offer a draw",
        ),
        h("button", { type: "button", class: "secondary ending-cancel", onclick: () => this.ask(null, null) }, "Cancel"),
      ),
    );
  }

  /** After the result: start the rematch (same scenario, sides swapped), or take your side in one started. */
  rematchBox(scene) {
    const started = Boolean(scene.rematch);
    return h(
      "div",
      { class: "rematch" },
      h("p", {}, started ? "A rematch has started, with the sides swapped." : "Play again with the sides swapped?"),
      h(
        "p",
        { class: "ending-buttons" },
        h(
          "button",
          { type: "button", class: "rematch-button", disabled: this.busy, onclick: () => this.rematch(scene.viewer[0]) },
          started ? "Join the rematch" : "Rematch",
        ),
      ),
    );
  }

  async rematch(side) {
    this.busy = true;
    this.render();
    try {
      const answer = await this.api.request("POST", `/api/games/${encodeURIComponent(this.game)}/rematch`, { side });
      rememberToken(answer.id, answer.token, answer.sides);
      window.location.href = answer.url;
    } catch (err) {
      this.onError(err);
      this.busy = false;
      this.render();
    }
  }

  ask(what, side) {
    this.confirming = what ? { what, side } : null;
    this.render();
    const focus = this.el.querySelector(what ? ".ending-yes" : ".ending-actions summary");
    if (focus) focus.focus();
  }

  async send(path, side) {
    this.busy = true;
    this.render();
    try {
      const answer = await this.api.request("POST", `/api/games/${encodeURIComponent(this.game)}/${path}`, { side });
      this.confirming = null;
      this.onScene(answer.scene);
    } catch (err) {
      this.onError(err);
    } finally {
      this.busy = false;
      this.render();
    }
  }
}
