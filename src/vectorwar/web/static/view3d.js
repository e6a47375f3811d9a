// The map's "3-D" button: offered when a game has altitude, on by default for AV:T, and the
// player's choice kept per game in localStorage (a stored choice wins over the default).

import { hasAltitude } from "./map/hexmap.js";

export class ViewToggle {
  constructor(button, map, game) {
    this.button = button;
    this.map = map;
    this.key = `vectorwar.view3d.${game}`;
    button.addEventListener("click", () => this.toggle());
  }

  /** Show or hide the button for a scene, and put the map in the view the player last chose. */
  choose(scene) {
    const offered = hasAltitude(scene);
    this.button.hidden = !offered;
    const stored = this.stored();
    this.show(offered && (stored === null ? scene.system === "avt" : stored === "on"));
  }

  toggle() {
    if (this.button.hidden) return;
    const on = !this.map.threeD;
    try {
      localStorage.setItem(this.key, on ? "on" : "off");
    } catch {
      // Storage blocked: switched all the same, just not remembered.
    }
    this.show(on);
  }

  stored() {
    try {
      return localStorage.getItem(this.key);
    } catch {
      return null;
    }
  }

  show(on) {
    this.button.setAttribute("aria-pressed", String(on));
    this.map.setThreeD(on);
  }
}
