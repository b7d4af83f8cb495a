// Every page's one classic script, loaded blocking in <head> (it is tiny): it marks
// <html class="js"> before the first paint, so that the phone's folded menu (site.css)
// never shows unfolded first, and makes the header's "Menu" button open and close it.
document.documentElement.classList.add("js");

document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector(".menu-button");
  const nav = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!nav) return;
  const setOpen = (open) => {
    button.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("site-nav--open", open);
  };
  button.addEventListener("click", () => setOpen(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      setOpen(false);
      button.focus();
    }
  });
});
