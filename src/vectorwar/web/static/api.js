// Talking to the vectorwar server (docs/web.md): HTTP JSON calls and the live WebSocket.

/** An answer the server refused, with its structured error when it sent one. */
export class ApiError extends Error {
  constructor(status, body) {
    const err = body && body.error;
    let message = `HTTP ${status}`;
    if (err && err.message) {
      message = err.message;
    } else if (body && body.detail) {
      message = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail);
    }
    super(message);
    this.status = status;
    this.body = body;
    this.type = err ? err.type : null;
    this.rule = err ? err.rule : null;
  }
}

/** Where the game page finds its game id and token: `?game=ID&token=T` or a `/games/ID` path. */
export function pageParams(loc = window.location) {
  const query = new URLSearchParams(loc.search);
  let game = query.get("game") || query.get("id");
  if (!game) {
    const m = loc.pathname.match(/\/(?:games?|play)\/([^/?#]+)/);
    if (m) game = decodeURIComponent(m[1]);
  }
  let token = query.get("token") || (loc.hash.startsWith("#token=") ? loc.hash.slice(7) : null);
  if (game && token) {
    rememberToken(game, token);
  } else if (game && !query.has("spectate")) {
    // A player who closed the tab and opens the bare game page gets their side back.
    token = savedToken(game);
  }
  return { game, token };
}

const TOKENS_KEY = "vectorwar.tokens";

function readTokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
  } catch {
    return {};
  }
}

export function rememberToken(game, token, sides = null) {
  const all = readTokens();
  const prev = all[game] || {};
  all[game] = { token, sides: sides || prev.sides || [] };
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  } catch {
    // Private windows may refuse storage; the join link still works.
  }
}

export function savedToken(game) {
  const entry = readTokens()[game];
  return entry ? entry.token : null;
}

export function savedGames() {
  return readTokens();
}

export class Api {
  constructor(token = null) {
    this.token = token;
  }

  async request(method, path, body = undefined) {
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    // The browser's own words for a lost connection ("Failed to fetch", "NetworkError when
    // attempting to fetch resource") tell a player nothing: say what happened and what to do.
    const unreachable = () => {
      const sendsOrder = method === "POST" && /\/orders$/.test(path);
      const then = sendsOrder
        ? "Your orders were not sent: commit them again once it is back."
        : "Check your connection and try again.";
      return new ApiError(0, { error: { type: "Unreachable", message: `Cannot reach the server: is it still running? ${then}` } });
    };
    let res;
    let text;
    try {
      res = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status === 204) return null;
      text = await res.text();
    } catch {
      throw unreachable();
    }
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        // Not the server's JSON: a proxy's error page, or the server dying mid-answer.
        data =
          res.status >= 500
            ? { error: { type: "ServerError", message: `The server had a problem (HTTP ${res.status}). Try again in a moment.` } }
            : { detail: text };
      }
    }
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }

  systems() {
    return this.request("GET", "/api/systems");
  }
  games() {
    return this.request("GET", "/api/games");
  }
  createGame(spec) {
    return this.request("POST", "/api/games", spec);
  }
  scene(game) {
    return this.request("GET", `/api/games/${encodeURIComponent(game)}`);
  }
  /** `step` is the scene's step the order was written for: a retry of it is recognised as one. */
  submit(game, side, text, step) {
    return this.request("POST", `/api/games/${encodeURIComponent(game)}/orders`, { side, text, step });
  }
  check(game, side, text) {
    return this.request("POST", `/api/games/${encodeURIComponent(game)}/check`, { side, text });
  }
  withdraw(game, side) {
    return this.request("DELETE", `/api/games/${encodeURIComponent(game)}/orders/${encodeURIComponent(side)}`);
  }
  /** `step` is the scene's step the draft was written at: one arriving after that prompt has passed is dropped. */
  setStanding(game, side, body) {
    return this.request("PUT", `/api/games/${encodeURIComponent(game)}/standing/${encodeURIComponent(side)}`, body);
  }
  saveDraft(game, side, text, step) {
    return this.request("PUT", `/api/games/${encodeURIComponent(game)}/drafts/${encodeURIComponent(side)}`, { text, step });
  }
  replay(game, step) {
    return this.request("GET", `/api/games/${encodeURIComponent(game)}/replay?step=${step}`);
  }
  timeline(game) {
    return this.request("GET", `/api/games/${encodeURIComponent(game)}/timeline`);
  }
  /** The chat between the game's sides (a player's token only). */
  chat(game) {
    return this.request("GET", `/api/games/${encodeURIComponent(game)}/chat`);
  }
  /** `key`: the line's idempotency key; a retry sends the same and the line is stored once. */
  say(game, side, text, key) {
    return this.request("POST", `/api/games/${encodeURIComponent(game)}/chat`, { side, text, key });
  }
}

/**
 * The live connection: calls onScene for every scene the server pushes, onChat for every chat
 * line (players only), and reports its state through onState ("connecting", "open", "closed").
 * Reconnects with a growing delay.
 */
export class LiveSocket {
  constructor(game, token, { onScene, onState, onChat = () => {} }) {
    this.game = game;
    this.token = token;
    this.onScene = onScene;
    this.onState = onState;
    this.onChat = onChat;
    this.delay = 500;
    this.stopped = false;
    this.ws = null;
    this.pingTimer = null;
  }

  url() {
    const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${window.location.host}/ws/games/${encodeURIComponent(this.game)}${q}`;
  }

  open() {
    this.onState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.onState("open");
      // Proxies drop idle sockets; a ping now and then keeps ours alive.
      this.pingTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "scene" && msg.scene) this.onScene(msg.scene);
      else if (msg.type === "chat" && msg.line) this.onChat(msg.line);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.onState("closed");
      if (!this.stopped) {
        setTimeout(() => this.open(), this.delay);
        this.delay = Math.min(this.delay * 2, 10000);
      }
    });
  }

  close() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}
