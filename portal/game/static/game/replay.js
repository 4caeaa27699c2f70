// The replay's wheel turns to where the game stopped: the angle comes from the page
// (data-stop), set through the CSSOM since the Content-Security-Policy allows no inline style.
document.querySelectorAll(".replay .rotor[data-stop]").forEach((rotor) => {
  rotor.style.setProperty("--stop", `${rotor.dataset.stop}deg`);
});
