// The table's deadlines (docs/web.md, "Deadlines and clocks"): the pace, each side's deadline as a time
// and a countdown, the sides a computer plays since they ran out of time (with "Take back my side" for
// the viewer's own), where the viewer's sides are reminded, and what the deadlines did, in the log.
// The server decides every deadline on its own clock; the page only counts down to the times it gives.

import { fill, h, sideChip, sideColours } from "./dom.js";

//: Choices for "remind me", in seconds before the deadline (none: the table's choice).
const REMIND_CHOICES = [
  [null, "when the table says"],
  [0, "never"],
  [600, "10 minutes before"],
  [3600, "1 hour before"],
  [6 * 3600, "6 hours before"],
  [86400, "1 day before"],
];

/** "2 h 05 min", "42 min", "35 s": what is left, to the minute once it is more than one. */
export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const hrs = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${hrs} h`;
  if (hrs) return `${hrs} h ${String(min).padStart(2, "0")} min`;
  if (min) return `${min} min`;
  return `${s} s`;
}

export class ClockPanel {
  /** ``container``: the side column's box; ``logBox``: the Log tab's list of what the deadlines did. */
  constructor(container, logBox, { api, game, onError }) {
    this.el = container;
    this.logBox = logBox;
    this.api = api;
    this.game = game;
    this.onError = onError;
    this.scene = null;
    this.clock = null;
    this.key = "";
    this.skew = 0; // the server's clock minus this browser's, in ms
    this.timer = null;
    this.form = undefined;
  }

  /** A new scene: ask the server again whenever the prompt or the sides owed change. */
  update(scene) {
    this.scene = scene;
    const key = JSON.stringify([scene.step, scene.prompt && scene.prompt.waiting_for, Boolean(scene.result)]);
    if (key === this.key) return;
    this.key = key;
    this.load();
  }

  async load() {
    try {
      this.show(await this.api.request("GET", `/api/games/${encodeURIComponent(this.game)}/clock`));
    } catch (err) {
      if (err.status !== 404) this.onError(err);
    }
  }

  show(clock) {
    this.clock = clock;
    this.skew = Date.parse(clock.now) - Date.now();
    if (!clock.pace) {
      this.el.hidden = true;
      this.logBox.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.render();
    this.renderLog();
    clearInterval(this.timer);
    // Counting down needs no server: the deadlines are times, the page only subtracts.
    this.timer = setInterval(() => this.tick(), 1000);
  }

  sidesLine(side, info, colours, mine) {
    if (info.late) {
      return h(
        "li",
        { class: "clock-side late", dataset: { side } },
        sideChip(side, colours[side]),
        ` missed its deadline: the computer (${info.computer}) plays it`,
        mine.includes(side)
          ? h("button", { type: "button", class: "take-back", onclick: () => this.takeBack(side) }, "Take back my side")
          : null,
      );
    }
    if (!info.owes && info.time_left !== null) {
      // A chess-like clock: the time a side has banked shows while it is not running.
      return h("li", { class: "clock-side", dataset: { side } }, sideChip(side, colours[side]), ` ${countdown(info.time_left)} left on its clock`);
    }
    if (!info.owes || !info.deadline) return null;
    const allowed = this.clock.pace.misses || 0;
    const due = new Date(info.deadline);
    return h(
      "li",
      { class: "clock-side", dataset: { side } },
      sideChip(side, colours[side]),
      " due ",
      h("time", { datetime: info.deadline }, due.toLocaleString([], { dateStyle: "short", timeStyle: "short" })),
      " (",
      h("span", { class: "countdown", dataset: { deadline: info.deadline } }, ""),
      ")",
      allowed ? h("span", { class: "hint" }, ` · missed ${info.missed} of ${allowed} allowed`) : null,
    );
  }

  render() {
    const clock = this.clock;
    const scene = this.scene || {};
    const colours = sideColours(scene);
    const mine = scene.viewer || [];
    const lines = Object.entries(clock.sides)
      .map(([side, info]) => this.sidesLine(side, info, colours, mine))
      .filter(Boolean);
    // Built once: a scene arriving while the player types must not wipe the form.
    if (this.form === undefined) this.form = this.remindersForm(clock, mine);
    fill(
      this.el,
      h("p", { class: "clock-pace" }, h("strong", {}, "Pace: "), clock.pace.words),
      lines.length ? h("ul", { class: "clock-sides" }, ...lines) : null,
      scene.result ? null : this.form,
    );
    this.tick();
  }

  tick() {
    const now = Date.now() + this.skew;
    for (const el of this.el.querySelectorAll(".countdown")) {
      const left = (Date.parse(el.dataset.deadline) - now) / 1000;
      el.textContent = left > 0 ? `in ${countdown(left)}` : "now: the computer takes over at the next check";
    }
  }

  renderLog() {
    const events = this.clock.events || [];
    this.logBox.hidden = events.length === 0;
    fill(
      this.logBox,
      h("h3", {}, "Deadlines"),
      h(
        "ul",
        {},
        ...events.map((e) =>
          h("li", { class: "clock-event" }, h("time", { datetime: e.at }, new Date(e.at).toLocaleString()), " ", e.text),
        ),
      ),
    );
  }

  remindersForm(clock, mine) {
    const sides = mine.filter((s) => s in (clock.contacts || {}));
    if (!sides.length) return null;
    const side = sides[0];
    const saved = clock.contacts[side];
    const email = h("input", { type: "email", id: "remind-email", value: saved.email, autocomplete: "email", placeholder: "you@example.org" });
    const webhook = h("input", { type: "url", id: "remind-webhook", value: saved.webhook, placeholder: "https://chat.example.org/hooks/…" });
    const before = h(
      "select",
      { id: "remind-before" },
      ...REMIND_CHOICES.map(([value, label]) => h("option", { value: value === null ? "" : String(value) }, label)),
    );
    before.value = saved.remind_before === null ? "" : String(saved.remind_before);
    const status = h("span", { class: "hint", role: "status" }, "");
    const save = async (ev) => {
      ev.preventDefault();
      const body = { email: email.value.trim(), webhook: webhook.value.trim() };
      if (before.value !== "") body.remind_before = Number(before.value);
      status.textContent = "Saving…";
      try {
        for (const s of sides) {
          await this.api.request("PUT", `/api/games/${encodeURIComponent(this.game)}/sides/${encodeURIComponent(s)}/reminders`, body);
        }
        status.textContent = "Saved";
      } catch (err) {
        status.textContent = `Refused: ${err.message}`;
      }
    };
    const anySaved = saved.email || saved.webhook;
    return h(
      "details",
      { class: "reminders", open: false },
      h("summary", {}, anySaved ? "Reminders: on" : "Remind me before my deadline…"),
      h(
        "form",
        { class: "reminders-form", onsubmit: save },
        h("p", { class: "hint" }, `For ${sides.join(" + ")}. Only you see these; the server sends one reminder a deadline, and a notice if the computer takes over.`),
        h("label", { for: "remind-email" }, "E-mail"),
        email,
        h("label", { for: "remind-webhook" }, "Webhook (a chat channel's incoming-webhook URL)"),
        webhook,
        h("label", { for: "remind-before" }, "When"),
        before,
        h("button", { type: "submit" }, "Save"),
        status,
      ),
    );
  }

  async takeBack(side) {
    try {
      this.show(await this.api.request("POST", `/api/games/${encodeURIComponent(this.game)}/take-back`, { side }));
    } catch (err) {
      this.onError(err);
    }
  }
}
