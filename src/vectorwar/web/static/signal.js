// The your-turn signal: when this viewer's sides come to owe orders, the tab's title and icon say
// so (while they owe them), and, if the player turned them on, a browser notification and a short
// beep say it once. Both are off until asked for: the notification's permission is requested only
// from the button's click, and sound starts only after a click too (browsers refuse it before).

const NOTIFY_KEY = "vectorwar.notify";
const SOUND_KEY = "vectorwar.sound";

function icon(badge) {
  const dot = badge ? `<circle cx='24' cy='8' r='7.5' fill='%23f5b942' stroke='%230b1019' stroke-width='2'/>` : "";
  return (
    "data:image/svg+xml," +
    `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>` +
    `<polygon points='9,3 23,3 30,16 23,29 9,29 2,16' fill='%23131b28' stroke='%237fb2ff' stroke-width='2.5'/>${dot}</svg>`
  );
}

function stored(key) {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // Private windows may refuse storage: the choice lasts for this page.
  }
}

export class TurnSignal {
  constructor({ notifyButton, soundButton, game }) {
    this.game = game;
    this.notifyButton = notifyButton;
    this.soundButton = soundButton;
    this.key = undefined; // the prompt this viewer owes orders at (null: none); undefined until the first scene
    this.notify = stored(NOTIFY_KEY) && this.permission() === "granted";
    this.sound = stored(SOUND_KEY);
    this.audio = null;
    this.link = document.querySelector("link[rel=icon]") || document.head.appendChild(document.createElement("link"));
    this.link.rel = "icon";
    this.setIcon(false);
    notifyButton.addEventListener("click", () => this.toggleNotify());
    soundButton.addEventListener("click", () => this.toggleSound());
    this.showButtons();
  }

  permission() {
    return "Notification" in window ? Notification.permission : "unsupported";
  }

  async toggleNotify() {
    if (this.notify) {
      this.notify = false;
    } else if (this.permission() === "granted") {
      this.notify = true;
    } else if (this.permission() === "default") {
      // Asked here, in the click's handler: browsers ignore a request that no gesture made.
      this.notify = (await Notification.requestPermission()) === "granted";
    }
    store(NOTIFY_KEY, this.notify);
    this.showButtons();
  }

  toggleSound() {
    this.sound = !this.sound;
    store(SOUND_KEY, this.sound);
    if (this.sound) this.beep(); // made in the click, so the browser lets the page sound later
    this.showButtons();
  }

  showButtons() {
    const perm = this.permission();
    this.notifyButton.setAttribute("aria-pressed", String(this.notify));
    this.notifyButton.disabled = perm === "unsupported" || perm === "denied";
    this.notifyButton.title =
      perm === "unsupported"
        ? "This browser has no notifications"
        : perm === "denied"
          ? "Notifications are blocked for this site in the browser's settings"
          : this.notify
            ? "A notification says when it is your turn (click to stop)"
            : "Notify me when it is my turn";
    this.soundButton.setAttribute("aria-pressed", String(this.sound));
    this.soundButton.title = this.sound ? "A beep says when it is your turn (click to stop)" : "Beep when it is my turn";
  }

  setIcon(badge) {
    this.link.href = icon(badge);
    this.link.dataset.badge = badge ? "on" : "off";
  }

  /** After each drawn scene: `title` is the page's own title, which this prefixes while it is the viewer's turn. */
  update(scene, mode, title) {
    const owed = mode === "live" && !scene.result ? scene.my_turn || [] : [];
    const key = owed.length ? `${scene.step}|${scene.prompt ? scene.prompt.clock : ""}|${owed.join(",")}` : null;
    document.title = key ? `● Your turn — ${title}` : title;
    document.body.dataset.yourTurn = String(Boolean(key));
    this.setIcon(Boolean(key));
    // Only a change while the page is open is news: the first scene is what the player opened.
    const fresh = key && this.key !== undefined && key !== this.key;
    if (mode === "live") this.key = key;
    if (fresh) this.alert(scene, owed);
  }

  alert(scene, owed) {
    if (this.sound) this.beep();
    // A player looking at the page sees the title and the orders; the notification is for elsewhere.
    if (!this.notify || this.permission() !== "granted" || (document.hasFocus() && !document.hidden)) return;
    const what = scene.scenario ? scene.scenario.title : "vectorwar";
    const clock = scene.prompt ? scene.prompt.clock : "";
    try {
      const note = new Notification(`Your turn — ${what}`, { body: `${owed.join(", ")}: ${clock}`, tag: `vectorwar-${this.game}` });
      note.onclick = () => window.focus();
    } catch {
      // Some browsers only notify from a service worker; the title and icon still say it.
    }
  }

  beep() {
    try {
      this.audio = this.audio || new AudioContext();
      const ctx = this.audio;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.3);
      document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
    } catch {
      // No audio here: the title and icon still say it.
    }
  }
}
