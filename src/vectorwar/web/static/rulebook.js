// The rules pages: "Show code and tests" folds out what names code or tests (class "tech"), hidden
// by default so a player reads the rules. A link to something folded away folds it out.
(() => {
  const button = document.querySelector(".show-code");
  if (!button) return;
  if (!document.querySelector(".rulebook .tech")) {
    button.hidden = true; // nothing folded away on this page (the index)
    return;
  }

  const show = (on) => {
    document.body.classList.toggle("show-code", on);
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "Hide code and tests" : "Show code and tests";
  };

  const reveal = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target && target.closest(".tech") && !document.body.classList.contains("show-code")) {
      show(true);
      target.scrollIntoView();
    }
  };

  button.addEventListener("click", () => show(!document.body.classList.contains("show-code")));
  window.addEventListener("hashchange", reveal);
  reveal();
})();
