// The AVID tab (AV:T): the selected ship's AVID (avid.js), its target markers listed with their
// bearing, range, ring and the mounts that reach them, and each mount's firing arc diagram
// (arcdiagram.js) with the chosen target's window marked. Redrawn from every scene, so it follows
// the game segment by segment and the replay step by step.
//
// The ship is the one clicked on the map (or picked here), else the viewer's own; the target is
// the one clicked (a marker on the AVID or a line of the list), else the first. A red card puts D
// at the top, as the text's red Ship Control Card does (A5.42): on by default for a side called
// red, and the player's choice is kept in localStorage (`vectorwar.avid.red`).

import { fill, h } from "./dom.js";
import { drawAvid } from "./avid.js";
import { drawArcDiagram } from "./arcdiagram.js";

const RED_KEY = "vectorwar.avid.red";

function readRed() {
  try {
    return localStorage.getItem(RED_KEY);
  } catch {
    return null;
  }
}

/** A target marker in words: bearing, ring, range, arc window and the mounts that reach it. */
export function targetWords(t) {
  if (!t.window) return `${t.id}: in this ship's own space`;
  const level = t.below ? "below the map, circled" : t.ring === "amber" ? "in the map's plane" : "above the map";
  const mounts = t.mounts.length ? `mounts ${t.mounts.join(", ")} reach it` : "no mount reaches it";
  return `${t.id}: bearing ${t.window} (${t.ring} ring, ${level}), range ${t.range}; arc window ${t.arc.join("/")}; ${mounts}`;
}

export class AvidPanel {
  constructor(container, { tab = null } = {}) {
    this.container = container;
    this.tab = tab;
    this.ship = null; // the ship shown, once chosen
    this.target = null; // the target marked in the arc diagrams, once chosen
    this.scene = null;
  }

  /** Whether a scene carries AVIDs to draw (AV:T). */
  static offered(scene) {
    const d = scene && scene.diagrams;
    return Boolean(d && d.kind === "avid" && Object.keys(d.ships || {}).length);
  }

  /** Show `id`'s AVID, if it has one; returns whether it does. */
  select(id) {
    const d = this.scene && this.scene.diagrams;
    if (!AvidPanel.offered(this.scene) || !d.ships[id]) return false;
    this.ship = id;
    this.render();
    return true;
  }

  update(scene) {
    this.scene = scene;
    const offered = AvidPanel.offered(scene);
    if (this.tab) this.tab.hidden = !offered;
    if (!offered) {
      fill(this.container);
      return;
    }
    this.render();
  }

  defaultShip() {
    const ships = this.scene.diagrams.ships;
    if (this.ship && ships[this.ship]) return this.ship;
    const viewer = this.scene.viewer || [];
    const all = Object.values(ships);
    const own = all.filter((x) => viewer.includes(x.side));
    const pick = own.find((x) => x.status === "active") || own[0] || all.find((x) => x.status === "active") || all[0];
    return pick.ship;
  }

  red(ship) {
    const stored = readRed();
    return stored === null ? String(ship.side).toLowerCase() === "red" : stored === "on";
  }

  render() {
    const diagrams = this.scene.diagrams;
    const ship = diagrams.ships[this.defaultShip()];
    this.ship = ship.ship;
    const targets = ship.targets;
    let chosen = targets.find((t) => t.id === this.target) || targets.find((t) => t.window) || null;
    this.target = chosen ? chosen.id : null;
    const info = h("p", { id: "avid-info", class: "avid-info", "aria-live": "polite" }, chosen ? targetWords(chosen) : "No target in sight.");
    const diagramsBox = h("div", { class: "arc-diagrams" });
    const drawArcs = () => {
      diagramsBox.replaceChildren(...ship.mounts.map((m) => drawArcDiagram(diagrams.arc_windows, m, chosen)));
    };
    const onTarget = (t, how) => {
      if (how === "select" && t) {
        this.target = t.id;
        chosen = t;
        drawArcs();
        for (const li of list.querySelectorAll("li")) li.classList.toggle("chosen", li.dataset.target === t.id);
      }
      const shown = t || chosen;
      info.textContent = shown ? targetWords(shown) : "No target in sight.";
      for (const svg of diagramsBox.querySelectorAll(".arc-diagram")) {
        svg.classList.toggle("hover-reaches", Boolean(t && t.window && t.mounts.includes(svg.dataset.mount)));
      }
    };
    const list = h(
      "ul",
      { class: "avid-targets", "aria-label": "Target markers" },
      ...targets.map((t) =>
        h(
          "li",
          { class: t.id === this.target ? "chosen" : "", dataset: { target: t.id } },
          h(
            "button",
            {
              type: "button",
              class: "secondary avid-target-button",
              title: targetWords(t),
              onmouseenter: () => onTarget(t, "hover"),
              onfocus: () => onTarget(t, "hover"),
              onmouseleave: () => onTarget(null, "hover"),
              onblur: () => onTarget(null, "hover"),
              onclick: () => onTarget(t, "select"),
            },
            t.window ? `${t.id} ${t.text}` : `${t.id} here`,
          ),
        ),
      ),
    );
    const shipPicker = h(
      "select",
      {
        id: "avid-ship",
        "aria-label": "Ship whose AVID is shown",
        onchange: (ev) => this.select(ev.target.value),
      },
      ...Object.values(diagrams.ships).map((x) => h("option", { value: x.ship, selected: x.ship === this.ship }, x.ship)),
    );
    const red = this.red(ship);
    const redToggle = h(
      "label",
      { class: "avid-red" },
      h("input", {
        type: "checkbox",
        id: "avid-red",
        checked: red,
        onchange: (ev) => {
          try {
            localStorage.setItem(RED_KEY, ev.target.checked ? "on" : "off");
          } catch {
            // Private windows may refuse storage: the choice still holds until the next scene.
          }
          this.render();
        },
      }),
      " Red card (D at the top)",
    );
    const turning = ship.turning
      ? h(
          "p",
          { class: "avid-turning" },
          `${ship.turning.kind} (${ship.turning.order}): `,
          ship.turning.stops.map((x) => `${x.window} in segment ${x.segment}${x.passed ? " (done)" : ""}`).join(", "),
        )
      : null;
    drawArcs();
    fill(
      this.container,
      h("div", { class: "avid-tools" }, h("label", {}, "Ship ", shipPicker), redToggle),
      drawAvid(diagrams, ship, { red, onTarget }),
      h(
        "p",
        { class: "avid-key" },
        "▲ Nose · ◗ Aft · ★ Top · ⚓ Bottom · P Port · S Starboard · numbers: target ranges · I: incoming damage · ",
        "small numbers on an arrow: the segment a pivot or roll reaches that window · circled: below the map",
      ),
      turning,
      info,
      list,
      h("h3", { class: "arc-heading" }, "Firing arc diagrams"),
      diagramsBox,
    );
  }
}
