// The designer's form: one input per field of a system's design schema (JSON Schema, as the server
// sends it). The form knows no system: numbers get their limits from the schema, choices become
// menus, lists of tables get a row per item, and anything else is edited as JSON text.
// `onChange(design)` is called with the whole design after every edit.

import { h } from "./dom.js";

function resolve(schema, root) {
  if (schema && schema.$ref) {
    const name = schema.$ref.split("/").pop();
    return { ...(root.$defs || {})[name], ...schema, $ref: undefined };
  }
  if (schema && schema.anyOf) {
    // An optional value (type or null) is edited as its type; an empty box leaves it out.
    const real = schema.anyOf.find((s) => s.type !== "null");
    if (real) return { ...schema, ...resolve(real, root), anyOf: undefined, optional: true };
  }
  return schema || {};
}

function limits(spec) {
  const lo = spec.minimum ?? spec.exclusiveMinimum;
  const hi = spec.maximum ?? spec.exclusiveMaximum;
  if (lo !== undefined && hi !== undefined) return `${lo} to ${hi}`;
  if (lo !== undefined) return `at least ${lo}`;
  if (hi !== undefined) return `at most ${hi}`;
  return "";
}

const idOf = (path) => `f-${path.join("-")}`;

/** Build the form for `design` into `container`; edits call `onChange` with the new design. */
export function designForm(container, schema, design, onChange) {
  const model = structuredClone(design || {});
  const changed = () => onChange(structuredClone(model));
  const redraw = () => designForm(container, schema, model, onChange);

  function setAt(path, value) {
    let node = model;
    for (const part of path.slice(0, -1)) node = node[part];
    const last = path[path.length - 1];
    if (value === undefined) delete node[last];
    else node[last] = value;
    changed();
  }

  function field(name, rawSpec, value, path, required) {
    const spec = resolve(rawSpec, schema);
    const id = idOf(path);
    const title = spec.title || name;
    const hint = [spec.description, limits(spec)].filter(Boolean).join(" · ");
    const label = h("label", { for: id }, title, required ? "" : h("span", { class: "optional" }, " (optional)"));
    const help = hint ? h("small", { class: "hint" }, hint) : null;
    const wrap = (input) => h("div", { class: "field", dataset: { field: path.join(".") } }, label, input, help);

    if (spec.enum) {
      const select = h(
        "select",
        { id, name: path.join(".") },
        required ? null : h("option", { value: "" }, "—"),
        ...spec.enum.map((v) => h("option", { value: String(v), selected: v === value }, String(v))),
      );
      if (value === undefined && required) setAt(path, spec.enum[0]);
      select.addEventListener("change", () => setAt(path, select.value === "" ? undefined : select.value));
      return wrap(select);
    }
    if (spec.type === "integer" || spec.type === "number") {
      const input = h("input", {
        id,
        name: path.join("."),
        type: "number",
        step: spec.type === "integer" ? 1 : "any",
        value: value ?? "",
      });
      // The schema's limits are shown, not enforced by the browser: the rules' own words say
      // what is wrong with a number out of bounds.
      input.addEventListener("input", () => {
        const text = input.value.trim();
        const n = Number(text);
        setAt(path, text === "" || Number.isNaN(n) ? undefined : n);
      });
      return wrap(input);
    }
    if (spec.type === "boolean") {
      const box = h("input", { id, name: path.join("."), type: "checkbox", checked: value ?? spec.default ?? false });
      box.addEventListener("change", () => setAt(path, box.checked));
      return wrap(box);
    }
    if (spec.type === "string") {
      const input = h("input", { id, name: path.join("."), type: "text", maxlength: 400, value: value ?? "" });
      input.addEventListener("input", () =>
        setAt(path, input.value === "" && (spec.optional || !required) ? undefined : input.value),
      );
      return wrap(input);
    }
    if (spec.type === "array") {
      const items = resolve(spec.items, schema);
      if (items.type === "string" || items.type === "integer") {
        // A list of words or numbers: comma-separated.
        const input = h("input", { id, name: path.join("."), type: "text", value: (value || []).join(", ") });
        input.addEventListener("input", () => {
          const parts = input.value.split(",").map((s) => s.trim()).filter(Boolean);
          setAt(path, items.type === "integer" ? parts.map(Number) : parts);
        });
        return wrap(input);
      }
      if (items.type === "object" && items.properties) {
        const list = Array.isArray(value) ? value : [];
        if (!Array.isArray(value)) setAt(path, list);
        const rows = list.map((item, i) =>
          h(
            "fieldset",
            { class: "item" },
            h("legend", {}, `${title} ${i + 1}`),
            ...object(items, item, [...path, i]),
            h("button", { type: "button", class: "remove", onclick: () => { list.splice(i, 1); changed(); redraw(); } }, "Remove"),
          ),
        );
        const add = h("button", {
          type: "button",
          class: "add",
          onclick: () => {
            if (list.length >= 40) return;
            list.push({});
            changed();
            redraw();
          },
        }, `Add ${title.toLowerCase()}`);
        return h("fieldset", { class: "list", dataset: { field: path.join(".") } }, h("legend", {}, title), help, ...rows, add);
      }
    }
    if (spec.type === "object" && spec.properties) {
      if (value === undefined) {
        node(path, {});
      }
      return h("fieldset", { class: "group", dataset: { field: path.join(".") } }, h("legend", {}, title), help, ...object(spec, getAt(path), path));
    }
    // Anything else (a table of free form, say): JSON text.
    const area = h("textarea", { id, name: path.join("."), rows: 4 }, value === undefined ? "" : JSON.stringify(value, null, 1));
    area.addEventListener("input", () => {
      const text = area.value.trim();
      try {
        setAt(path, text === "" ? undefined : JSON.parse(text));
        area.setCustomValidity("");
      } catch {
        area.setCustomValidity("not valid JSON");
      }
    });
    return wrap(area);
  }

  function getAt(path) {
    let n = model;
    for (const part of path) n = n[part];
    return n;
  }

  function node(path, value) {
    let n = model;
    for (const part of path.slice(0, -1)) n = n[part];
    n[path[path.length - 1]] = value;
  }

  function object(spec, value, path) {
    const required = new Set(spec.required || []);
    return Object.entries(spec.properties || {}).map(([name, sub]) =>
      field(name, sub, (value || {})[name], [...path, name], required.has(name)),
    );
  }

  container.replaceChildren(...object(schema, model, []));
  return model;
}
