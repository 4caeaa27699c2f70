// Asks before a step that cannot be undone (reject, withdraw): a button with
// data-confirm="question" posts only once the question is answered OK. A step that needs
// a reason (data-reason-required) is not confirmed while its form's reason is empty: it
// posts at once and the server says the reason is missing, changing nothing. Without
// script the button posts at once, and the server still asks for the step's reason.
(function () {
  "use strict";

  function reasonMissing(button) {
    if (!button.hasAttribute("data-reason-required") || !button.form) return false;
    var reason = button.form.elements.namedItem("reason");
    return !reason || !reason.value.trim();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-confirm]");
    if (!button || button.disabled || reasonMissing(button)) return;
    if (!window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });
})();
