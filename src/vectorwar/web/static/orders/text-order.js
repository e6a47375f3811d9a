// The order line, for prompts without movement plots (fire, launches, initiative choices...):
// typed and checked live, with the fire picker under it when the scene lists legal shots, else
// the help's quoted examples as buttons (only those the server accepts now), else weapon buttons
// guessed from the arcs for servers that send no `fire_options`.

import { h } from "../dom.js";
import { addArcWeapons } from "./arc-weapons.js";
import { buildFirePicker } from "./fire-picker.js";

/** The line a side types its order on (the order form's own and the move picker's typed one). */
export function orderInput(side, placeholder) {
  return h("input", {
    type: "text",
    class: "order-text",
    name: `order-${side}`,
    "aria-label": `Order for ${side}`,
    autocomplete: "off",
    spellcheck: "false",
    placeholder,
  });
}

/** Fill `panel` with the line (`panel.input`; `panel.edited()` after any change to it). */
export function buildTextOrder(shell, panel, draft) {
  const scene = shell.scene;
  const side = panel.side;
  const input = orderInput(side, "type the order, or use the buttons below");
  const fire = shell.fireOptionsFor(side);
  // Firing nothing is an order too, so the line starts as "hold" rather than empty.
  input.value = draft || (fire ? "hold" : "");
  panel.text = () => input.value.trim();
  panel.input = input;
  const check = shell.liveCheck(panel, () => input.value.trim(), () => true);
  const edited = () => {
    check();
    shell.saveDraft[side](input.value);
  };
  input.addEventListener("input", edited);
  panel.edited = edited;
  panel.form.append(input);
  if (input.value) check();

  const helpers = h("div", { class: "helpers" });
  const help = (scene.prompt && scene.prompt.help) || "";
  const examples = h("div", { class: "examples" });
  helpers.append(examples);
  if (fire) {
    // "Clear (hold fire)" stands in for the help's examples, which only show the notation.
    buildFirePicker(shell, panel, fire);
    return;
  }
  offerExamples(shell, panel, help, examples);
  // The scene lists the legal shots itself; guessing from arcs is only for servers that do not.
  if (!("fire_options" in scene)) addArcWeapons(shell, panel, help, helpers);
  panel.form.append(helpers);
  if (helpers.querySelector("button.weapon")) {
    panel.form.append(h("p", { class: "hint" }, "Pick a weapon to see its arc, then click a target on the map."));
  }
}

/**
 * The help's quoted examples ("'hold'", "'blue first'") become one-click buttons, but only
 * those the server accepts for this side now, so a button never offers an illegal order.
 */
async function offerExamples(shell, panel, help, box) {
  const quoted = [...help.matchAll(/'([^']+)'/g)].map((m) => m[1].trim());
  for (const text of [...new Set(quoted)]) {
    try {
      await shell.api.check(shell.game, panel.side, text);
    } catch {
      continue;
    }
    if (!shell.container.contains(box)) return;
    box.append(
      h(
        "button",
        {
          type: "button",
          class: "helper example",
          dataset: { order: text },
          onclick: () => {
            panel.input.value = text;
            panel.edited();
            panel.input.focus();
          },
        },
        text,
      ),
    );
  }
}
