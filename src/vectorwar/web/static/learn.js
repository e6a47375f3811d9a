// The lobby's "Learn to play" list: one button per guided tutorial; pressing one sets up its game
// and opens it with the tutorial panel (tutorial.js).

import { Api, rememberToken } from "./api.js";
import { h } from "./dom.js";

const api = new Api();

async function startTutorial(tutorial, button, status) {
  button.disabled = true;
  status.textContent = `Setting up ${tutorial.title}…`;
  try {
    const created = await api.request("POST", `/api/tutorials/${encodeURIComponent(tutorial.id)}/start`);
    const player = created.players[0];
    rememberToken(created.id, player.token, player.sides);
    window.location.href = new URL(player.url, window.location.href).href;
  } catch (err) {
    status.textContent = `Could not start: ${err.message}`;
    button.disabled = false;
  }
}

async function main() {
  const list = document.getElementById("learn-list");
  const status = document.getElementById("learn-status");
  if (!list) return;
  let tutorials;
  try {
    tutorials = await api.request("GET", "/api/tutorials");
  } catch (err) {
    status.textContent = `Could not list the tutorials: ${err.message}`;
    return;
  }
  list.replaceChildren(
    ...tutorials.map((t) => {
      const button = h("button", { type: "button", class: "secondary learn", dataset: { tutorial: t.id } }, t.title);
      button.addEventListener("click", () => startTutorial(t, button, status));
      return h("li", {}, button, h("span", { class: "hint" }, ` ${t.steps} steps`));
    }),
  );
  list.dataset.ready = "true";
}

main();
