// Small progressive enhancements; every page works without them.
(function () {
  "use strict";

  // Money is typed as whole cents; show the dollar amount beside each such field.
  function showDollars(input) {
    var output = document.querySelector('[data-dollars-for="' + input.id + '"]');
    if (!output) return;
    var text = input.value.trim();
    if (!/^\d+$/.test(text)) { output.textContent = ""; return; }
    var cents = BigInt(text);
    var dollars = (cents / 100n).toLocaleString("en-US");
    var rest = String(cents % 100n).padStart(2, "0");
    output.textContent = "= $" + dollars + "." + rest;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var inputs = document.querySelectorAll("input[data-minor-units]");
    inputs.forEach(function (input) {
      showDollars(input);
      input.addEventListener("input", function () { showDollars(input); });
    });
  });
})();
