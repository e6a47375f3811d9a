// Chat between the sides of a game, at the foot of the Log tab. Lines come from the server's
// store (GET .../chat, again after every reconnect) and live over the socket; each is plain text,
// put on the page as a text node so nothing a player types is ever read as HTML. Spectators see
// no chat: the server sends them none (docs/web.md, Chat).

import { h, sideChip } from "./dom.js";

const MAX_CHARS = 500; // the server's MAX_CHAT_CHARS: longer lines are refused there too

export class ChatPanel {
  /** `onLine(line, own)` is told of each new line (own: said by one of this viewer's sides). */
  constructor(container, { api, game, onLine = () => {} }) {
    this.container = container;
    this.api = api;
    this.game = game;
    this.onLine = onLine;
    this.lines = new Map(); // number -> line
    this.sides = [];
    this.pending = null; // {side, text, key} of the line being sent, until the server has it
    this.colours = {};
    this.build();
  }

  build() {
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": "Chat lines" });
    this.sidePick = h("select", { class: "chat-side", "aria-label": "Speak as" });
    this.input = h("input", {
      type: "text",
      class: "chat-input",
      maxlength: String(MAX_CHARS),
      placeholder: "Say something to the other players",
      "aria-label": "Chat line",
      autocomplete: "off",
    });
    this.send = h("button", { type: "submit", class: "chat-send" }, "Send");
    this.error = h("p", { class: "chat-error", role: "alert", hidden: true });
    this.form = h("form", { class: "chat-form" }, this.sidePick, this.input, this.send);
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.say();
    });
    this.container.replaceChildren(h("h2", { class: "chat-title" }, "Chat"), this.list, this.form, this.error);
  }

  /** The viewer's sides from the newest scene: a spectator has no chat; the first scene loads it. */
  update(scene) {
    const sides = scene.viewer || [];
    this.colours = Object.fromEntries((scene.sides || []).map((s) => [s.name, s.colour]));
    this.container.hidden = !sides.length;
    if (sides.join() !== this.sides.join()) {
      this.sides = sides;
      this.sidePick.replaceChildren(...sides.map((s) => h("option", { value: s }, s)));
      this.sidePick.hidden = sides.length < 2;
      if (sides.length) this.load();
    }
  }

  /** Read the whole chat again (on the first scene and after a reconnect: lines may have been missed). */
  async load() {
    if (!this.sides.length) return;
    try {
      const { lines } = await this.api.chat(this.game);
      for (const line of lines) this.add(line, false);
    } catch (err) {
      this.showError(err);
    }
  }

  /** A line from the store or the socket; one already shown is ignored. */
  add(line, fresh = true) {
    if (this.lines.has(line.n)) return;
    this.lines.set(line.n, line);
    const at = new Date(line.at);
    const item = h(
      "li",
      { class: "chat-line", dataset: { n: line.n, side: line.side } },
      sideChip(line.side, this.colours[line.side]),
      " ",
      h("span", { class: "chat-text" }, line.text),
      h("time", { datetime: line.at, class: "chat-time" }, Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
    );
    // Lines are numbered by the server: keep them in that order whatever order they arrive in.
    const after = [...this.list.children].find((li) => Number(li.dataset.n) > line.n);
    this.list.insertBefore(item, after || null);
    this.list.scrollTop = this.list.scrollHeight;
    if (fresh) this.onLine(line, this.sides.includes(line.side));
  }

  async say() {
    const text = this.input.value.trim();
    if (!text) return;
    const side = this.sidePick.value || this.sides[0];
    // Each line has a key of its own; sending the same line again after a lost answer sends the
    // same key, so the server stores it once and answers the stored line.
    if (!this.pending || this.pending.side !== side || this.pending.text !== text) {
      this.pending = { side, text, key: lineKey() };
    }
    this.send.disabled = true;
    try {
      this.add(await this.api.say(this.game, side, text, this.pending.key));
      this.pending = null;
      this.input.value = "";
      this.showError(null);
    } catch (err) {
      this.showError(err);
    } finally {
      this.send.disabled = false;
      this.input.focus();
    }
  }

  showError(err) {
    this.error.hidden = !err;
    this.error.textContent = err ? err.message || String(err) : "";
  }
}

/** A random key for one chat line: 32 hex digits (crypto.getRandomValues works on plain http too). */
function lineKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
