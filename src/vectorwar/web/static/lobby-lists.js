// The lobby's lists: games with open sides to join, and this browser's own games with whose move it is.

import { Api, rememberToken, savedGames } from "./api.js";
import { h } from "./dom.js";

const api = new Api();
//: The most of this browser's games whose scenes the lobby asks for (each is a request).
const MINE_MAX = 8;

function gameUrl(id, token) {
  return `/games/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
}

const PRACTICE_CONSENT =
  "This is a practice game: its creator chose the dice seed and can foresee every roll. Join anyway?";

async function join(game, side, button, status) {
  // A practice game's dice are known to its creator: the joiner agrees to that, or does not join.
  if (game.practice && !window.confirm(PRACTICE_CONSENT)) return;
  button.disabled = true;
  status.textContent = `Taking ${side}…`;
  try {
    const body = game.practice ? { side, practice: true } : { side };
    const player = await api.request("POST", `/api/games/${encodeURIComponent(game.id)}/join`, body);
    rememberToken(game.id, player.token, player.sides);
    window.location.href = player.url || gameUrl(game.id, player.token);
  } catch (err) {
    status.textContent = `Could not join: ${err.message}`;
    button.disabled = false;
    loadOpenGames(); // someone else took it: show what is left
  }
}

/** Games with sides nobody holds yet, a Join button for each free side. */
export async function loadOpenGames() {
  const box = document.getElementById("open-games");
  const status = document.getElementById("open-status");
  let games;
  try {
    games = await api.request("GET", "/api/games/open");
  } catch (err) {
    box.replaceChildren(h("p", { class: "hint" }, `Could not list open games: ${err.message}`));
    return;
  }
  const mine = savedGames();
  const rows = games.filter((g) => !mine[g.id]);
  if (!rows.length) {
    box.replaceChildren(h("p", { class: "hint" }, "No open sides just now: set up a game with an open side and share the lobby."));
    return;
  }
  box.replaceChildren(
    h(
      "ul",
      { class: "open-games" },
      ...rows.map((g) =>
        h(
          "li",
          { dataset: { game: g.id } },
          h("strong", {}, g.title || g.scenario),
          ` (${g.system}, created ${new Date(g.created).toLocaleString()}${g.pace ? `, ${g.pace}` : ""}) `,
          g.practice ? h("span", { class: "practice-tag", title: "Its creator chose the dice seed and can foresee every roll" }, "practice ") : "",
          ...g.free.map((side) => {
            const button = h("button", { type: "button", class: "join-side", dataset: { side } }, `Join as ${side}`);
            button.addEventListener("click", () => join(g, side, button, status));
            return button;
          }),
        ),
      ),
    ),
  );
}

function whoseMove(scene) {
  if (scene.result) return { text: "over", mine: false };
  const prompt = scene.prompt;
  if (!prompt) return { text: "", mine: false };
  if ((scene.my_turn || []).length) return { text: `your move (${scene.my_turn.join(" + ")})`, mine: true };
  const waiting = prompt.waiting_for || [];
  return { text: waiting.length ? `waiting for ${waiting.join(", ")}` : "", mine: false };
}

/** When the earliest of ``sides``' deadlines falls, in words; "" for a table without deadlines. */
async function ownDeadline(id, token, sides) {
  let clock;
  try {
    clock = await new Api(token).request("GET", `/api/games/${encodeURIComponent(id)}/clock`);
  } catch {
    return "";
  }
  const times = sides.map((s) => clock.sides[s] && clock.sides[s].deadline).filter(Boolean).sort();
  return times.length ? new Date(times[0]).toLocaleString([], { dateStyle: "short", timeStyle: "short" }) : "";
}

/** This browser's games (the tokens it keeps), newest kept first, with whose move it is. */
export async function loadMyGames() {
  const box = document.getElementById("my-games");
  const saved = Object.entries(savedGames()).filter(([, s]) => s && s.token);
  if (!saved.length) {
    box.replaceChildren(h("p", { class: "hint" }, "No games of yours in this browser yet."));
    return;
  }
  const shown = saved.slice(-MINE_MAX).reverse();
  const rows = await Promise.all(
    shown.map(async ([id, s]) => {
      let scene = null;
      try {
        scene = await new Api(s.token).scene(id);
      } catch {
        return null; // gone from this server
      }
      const move = whoseMove(scene);
      const due = move.mine ? await ownDeadline(id, s.token, scene.my_turn) : "";
      return h(
        "li",
        { dataset: { game: id }, class: move.mine ? "my-move" : "" },
        h("a", { href: gameUrl(id, s.token), class: "resume" }, (scene.scenario && scene.scenario.title) || id),
        // A token remembered by the game page alone has no sides kept with it: the scene names them.
        ` as ${((s.sides || []).length ? s.sides : scene.viewer || []).join(" + ")}: `,
        h("span", { class: "whose-move" }, move.text),
        due ? h("span", { class: "due" }, ` · due ${due}`) : null,
      );
    }),
  );
  const found = rows.filter(Boolean);
  box.replaceChildren(found.length ? h("ul", { class: "my-games" }, ...found) : h("p", { class: "hint" }, "No games of yours on this server."));
}
