// Keeps the player's clock running (§ 814a.1): the Pennsylvania time and the time signed in,
// as the server first rendered them, moved on every fifteen seconds.
(function () {
  "use strict";
  var clock = document.getElementById("game-clock");
  if (!clock) return;
  var now = clock.querySelector(".clock-now");
  var elapsed = clock.querySelector(".clock-elapsed");
  var signedIn = clock.dataset.signedInMs ? Number(clock.dataset.signedInMs) : null;
  var shown = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    timeZoneName: "short",
  });
  function plural(count, word) { return count + " " + word + (count === 1 ? "" : "s"); }
  function tick() {
    var at = new Date();
    var parts = shown.formatToParts(at);
    var part = function (type) { return (parts.find(function (p) { return p.type === type; }) || {}).value; };
    now.textContent = part("hour") + ":" + part("minute") + " " + part("timeZoneName");
    if (elapsed && signedIn !== null) {
      var minutes = Math.max(0, Math.floor((at.getTime() - signedIn) / 60000));
      var hours = Math.floor(minutes / 60);
      var words = plural(minutes % 60, "minute");
      elapsed.textContent = hours ? plural(hours, "hour") + " " + words : words;
    }
  }
  window.setInterval(tick, 15000);
})();
