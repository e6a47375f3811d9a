// "Send it to the lab" (docs/lab.md, "The workshop end to end"): the scenario in the editor is played on
// the server between computer players (POST /api/workshop/lab, a small bounded run) and each side's wins,
// draws and losses show with their 95% intervals, with the command that runs the full lab on the
// designer's own machine and a way to watch the run's first game in the replay.

import { ApiError } from "./api.js";
import { fill, h } from "./dom.js";

const $ = (id) => document.getElementById(id);

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const interval = (x, lo, hi) => `${pct(x)} (${pct(lo)}–${pct(hi)})`;

function sideTable(figures) {
  return h(
    "table",
    { class: "games-table lab-table", id: "sc-lab-table" },
    h("thead", {}, h("tr", {}, ["Side", "Wins", "Draws", "Losses", "Win rate (95% interval)", "Loss rate (95% interval)"].map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      figures.sides.map((s) =>
        h(
          "tr",
          { dataset: { side: s.side } },
          h("th", { scope: "row" }, s.side),
          h("td", {}, s.wins),
          h("td", {}, s.draws),
          h("td", {}, s.losses),
          h("td", { class: "win" }, interval(s.win, s.win_lo, s.win_hi)),
          h("td", {}, interval(s.loss, s.loss_lo, s.loss_hi)),
        ),
      ),
    ),
  );
}

function showRun(run, onWatch) {
  const f = run.figures;
  const bots = [...new Set(Object.values(run.bots))].join(", ");
  const played = f
    ? `${f.games} games (seeds ${f.seeds}), the ${bots} computer player in every side.`
    : "No game was played.";
  const cut = run.complete ? "" : ` The server's budget of ${run.budget} s ran out before the ${run.asked} games asked for.`;
  fill(
    $("sc-lab-result"),
    h("p", { id: "sc-lab-summary" }, played + cut),
    f ? h("div", { class: "lab-table-wrap" }, sideTable(f)) : null,
    f
      ? h("p", {}, `Draws: ${interval(f.draw, f.draw_lo, f.draw_hi)}. Decided before the turn limit: ${interval(f.completion, f.completion_lo, f.completion_hi)}. `
          + `Length: ${f.turns_mean.toFixed(1)} turns on average (${f.turns_min}–${f.turns_max}).`)
      : null,
    run.sample ? h("button", { type: "button", id: "sc-lab-watch", onclick: () => onWatch(run.sample) }, "Watch the first game") : null,
    h("p", { class: "hint" }, "A few dozen games give a first answer; for 1,000 games with every figure, plots and sample games, download the scenario as scenario.toml and run:"),
    h("pre", {}, h("code", { id: "sc-lab-command" }, run.command)),
  );
}

/** Send a save file's text to the server (POST /api/games/import) and open the game's replay. */
export async function watchSaveFile(text) {
  // The file goes as it is: the server reads it exactly as the command line does.
  const res = await fetch("/api/games/import", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: text,
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  window.location.assign(body.replay_url);
}

/** Wire the lab section to the scenario editor (`editor.data()` is the scenario as the server reads it). */
export function labPanel(api, editor) {
  const status = $("sc-lab-status");

  async function watch(sample) {
    try {
      await watchSaveFile(JSON.stringify(sample));
    } catch (err) {
      status.textContent = err.message || String(err);
    }
  }

  async function send() {
    const games = Number($("sc-lab-games").value) || 100;
    $("sc-lab").disabled = true;
    document.body.dataset.labRunning = "true";
    status.textContent = `Playing ${games} games on the server…`;
    fill($("sc-lab-result"));
    try {
      const run = await api.request("POST", "/api/workshop/lab", { scenario: editor.data(), games });
      status.textContent = run.complete ? "Done." : "Stopped at the server's time budget.";
      showRun(run, watch);
    } catch (err) {
      status.textContent = err.message || String(err);
    } finally {
      document.body.dataset.labRunning = "false";
      $("sc-lab").disabled = !editor.ready();
    }
  }

  $("sc-lab").addEventListener("click", send);
}
