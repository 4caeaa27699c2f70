// The header's menu at phone width: folded behind its "Menu" button, opened and closed by
// it (Escape closes it too). Without this script the menu simply stays open; at desk
// width the stylesheet shows it whatever the button says.
(function () {
  "use strict";

  function setUp(header) {
    var button = header.querySelector(".menu-toggle");
    var menu = button && document.getElementById(button.getAttribute("aria-controls"));
    if (!menu) return;
    function show(open) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    show(false);
    header.classList.add("menu-ready");
    button.addEventListener("click", function () {
      show(button.getAttribute("aria-expanded") !== "true");
    });
    header.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        show(false);
        button.focus();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".site-header").forEach(setUp);
  });
})();
