// Rules at hand: above the orders, links to the rule rows that apply to the prompt now (the
// server's /api/rules/prompt for the game's system, scenario and phase), each opening the rules page
// at that row in a new tab.

import { h } from "./dom.js";

export class RuleLinks {
  constructor(box, api) {
    this.box = box;
    this.api = api;
    this.key = null;
  }

  async update(scene) {
    if (!this.box) return;
    const phase = scene.prompt ? scene.prompt.clock : "";
    const scenario = scene.scenario ? scene.scenario.id : "";
    const key = `${scene.system} ${scenario} ${phase}`;
    if (key === this.key) return;
    this.key = key;
    if (!scene.prompt) {
      this.box.replaceChildren();
      return;
    }
    const query = new URLSearchParams({ system: scene.system, scenario, phase });
    let links;
    try {
      links = await this.api.request("GET", `/api/rules/prompt?${query}`);
    } catch {
      return; // only a help link: the orders work without it
    }
    if (this.key !== key) return;
    this.box.replaceChildren(
      h("span", { class: "rule-links-label" }, "Rules: "),
      ...links.flatMap((l, i) => [i ? " · " : "", h("a", { href: l.href, target: "_blank", rel: "noopener", class: "rule-link" }, l.label)]),
    );
  }
}
