// Asks before a step that cannot be undone (reject, withdraw): a button with
// data-confirm="question" posts only once the question is answered OK. Without script
// the button posts at once, and the server still asks for the step's reason.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-confirm]");
    if (!button || button.disabled) return;
    if (!window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });
})();
