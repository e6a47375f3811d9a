// The side column's tabs (Orders, Ships, AVID for AV:T, Log): one panel at a time, each scrolling on its own,
// so the map keeps the screen. ARIA tabs: arrow keys, Home and End move between them.

export class Tabs {
  constructor(tablist, { onSelect } = {}) {
    this.tablist = tablist;
    this.onSelect = onSelect || (() => {});
    this.tabs = [...tablist.querySelectorAll("[role=tab]")];
    this.current = (this.tabs.find((t) => t.getAttribute("aria-selected") === "true") || this.tabs[0]).dataset.tab;
    for (const tab of this.tabs) {
      tab.addEventListener("click", () => this.select(tab.dataset.tab));
      tab.addEventListener("keydown", (ev) => {
        // A tab a game does not offer (AV:T's AVID elsewhere) is hidden and skipped.
        const shown = this.tabs.filter((t) => !t.hidden);
        const i = shown.indexOf(tab);
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: shown.length - 1 }[ev.key];
        if (to === undefined) return;
        ev.preventDefault();
        const next = shown[(to + shown.length) % shown.length];
        this.select(next.dataset.tab);
        next.focus();
      });
    }
  }

  tab(name) {
    return this.tabs.find((t) => t.dataset.tab === name);
  }

  /** Show one panel; the others keep their scroll position for when they come back. */
  select(name) {
    if (!this.tab(name)) return;
    for (const tab of this.tabs) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      document.getElementById(tab.getAttribute("aria-controls")).hidden = !on;
    }
    const changed = name !== this.current;
    this.current = name;
    document.body.dataset.tab = name;
    if (changed) this.onSelect(name);
  }

  /** A small count or dot on a tab that is not showing (text "" hides it). */
  badge(name, text, label = "") {
    const badge = this.tab(name).querySelector(".tab-badge");
    badge.hidden = !text;
    badge.textContent = text || "";
    if (label) badge.setAttribute("aria-label", label);
    else badge.removeAttribute("aria-label");
  }
}
