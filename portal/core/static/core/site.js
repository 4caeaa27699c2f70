// Small progressive enhancements; every page works without them.
(function () {
  "use strict";

  // A refused form's error summary (templates/core/_error_summary.html) takes the focus when
  // the page loads, so a screen reader reads it and the page shows it; a click on one of its
  // links puts the cursor in that field and shows the field's label with it.
  function focusErrorSummary() {
    var summary = document.querySelector("[data-error-summary]");
    if (summary) summary.focus();
  }

  function fieldLabel(field) {
    var legend = field.closest("fieldset") && field.type === "radio"
      ? field.closest("fieldset").querySelector("legend") : null;
    return legend || (field.id && document.querySelector('label[for="' + field.id + '"]')) || field;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("[data-error-summary] a[href^='#']");
    if (!link) return;
    var field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    event.preventDefault();
    fieldLabel(field).scrollIntoView();
    field.focus({ preventScroll: true });
  });

  document.addEventListener("DOMContentLoaded", focusErrorSummary);
})();
