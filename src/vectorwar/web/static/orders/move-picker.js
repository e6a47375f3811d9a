// The plain move picker: one radio list of legal plots per ship, the order being the chosen
// plots joined by "; ". Commit waits until every ship has one. A draft the lists cannot show
// opens in the typed line instead.

import { addTypeToggle } from "./type-toggle.js";
import { Plots } from "./plots.js";
import { entries, norm } from "./text.js";

export function buildMovePicker(shell, panel, ships, draft, colour) {
  const plots = new Plots(shell, panel, ships, colour);
  const { chosen } = plots;
  const draftEntries = entries(draft).map(norm);
  const showPreview = () => {
    plots.showPreview(panel.text());
    const complete = plots.complete();
    panel.commit.disabled = !complete;
    panel.status.textContent = complete ? "" : plots.missing();
  };
  panel.text = () =>
    ships
      .filter((s) => chosen[s])
      .map((s) => chosen[s].text)
      .join("; ");
  const fieldsets = [];
  for (const ship of ships) {
    const list = plots.list(ship, () => {
      showPreview();
      shell.saveDraft[panel.side](panel.text());
    });
    for (const [input, opt] of plots.radios[ship]) {
      if (draftEntries.includes(norm(opt.text))) {
        input.checked = true;
        chosen[ship] = opt;
      }
    }
    const box = plots.fieldset(ship, "ship-plot", list);
    fieldsets.push(box);
    panel.form.append(box);
  }
  panel.form.append(plots.preview);
  showPreview();
  plots.focusShip(ships[0], chosen[ships[0]]);
  // Any system's plot may be written by hand; a typed plot the lists hold is shown in them again.
  addTypeToggle(shell, panel, [...fieldsets, plots.preview], {
    refresh: () => {
      showPreview();
      plots.refocus();
    },
    load: (text) => {
      const wanted = entries(text).map(norm);
      const found = ships
        .map((ship) => [ship, shell.scene.move_options[ship].find((o) => wanted.includes(norm(o.text)))])
        .filter(([, opt]) => opt);
      if (!wanted.length || found.length !== wanted.length) return false;
      for (const [ship, opt] of found) {
        chosen[ship] = opt;
        // By text: a push may have brought a fresh scene since the lists were built.
        plots.radios[ship].find(([, o]) => o.text === opt.text)[0].checked = true;
      }
      return true;
    },
  });
  const known = ships.flatMap((ship) => shell.scene.move_options[ship].map((o) => norm(o.text)));
  if (draftEntries.some((e) => !known.includes(e))) panel.typeOrder(draft);
}
