// "Type the order instead": every movement picker can be put away for a free order line, checked
// live, so any legal order can always be written; switching back shows the typed order in the
// pickers when they can hold it.

import { h } from "../dom.js";
import { orderInput } from "./text-order.js";

/**
 * Add the toggle and the hidden line to `panel`'s form. `controls` are the picker's nodes put away
 * while typing; `load(text)` shows a typed order in them (false: they cannot, and keep their
 * choices); `refresh()` redraws the picker when it comes back. Sets `panel.typeOrder(text)`,
 * which opens the line with a text (a draft the pickers cannot show).
 */
export function addTypeToggle(shell, panel, controls, { refresh, load }) {
  const side = panel.side;
  const picked = panel.text;
  const input = orderInput(side, "type the order");
  const line = h("div", { class: "typed-order", hidden: true }, input);
  const toggle = h(
    "button",
    { type: "button", class: "secondary type-toggle", "aria-pressed": "false", "aria-controls": `typed-${side}` },
    "Type the order instead",
  );
  line.id = `typed-${side}`;
  const check = shell.liveCheck(panel, () => input.value.trim(), () => Boolean(panel.typed));
  input.addEventListener("input", () => {
    check();
    shell.saveDraft[side](input.value.trim());
  });
  const show = (typed) => {
    panel.typed = typed;
    for (const node of controls) node.hidden = typed;
    line.hidden = !typed;
    toggle.setAttribute("aria-pressed", String(typed));
    toggle.textContent = typed ? "Use the choices instead" : "Type the order instead";
  };
  panel.typeOrder = (text) => {
    input.value = text;
    show(true);
    // A weapon armed in the put-away picker must not take map clicks meanwhile.
    if (shell.fireArmed && shell.fireArmed.panel === panel) shell.disarm(panel.form);
    panel.text = () => input.value.trim();
    panel.commit.disabled = false;
    panel.say("", "");
    check();
  };
  toggle.addEventListener("click", () => {
    if (!panel.typed) {
      panel.typeOrder(picked());
      input.focus();
      return;
    }
    const text = input.value.trim();
    if (text && text !== picked()) load(text);
    show(false);
    panel.text = picked;
    panel.say("", "");
    refresh();
    shell.saveDraft[side](panel.text());
    toggle.focus();
  });
  panel.form.append(line, h("p", { class: "type-toggle-row" }, toggle));
}
