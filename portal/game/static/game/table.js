// The Jinzi Roulette table: pick a chip, place it on spots, confirm, spin.
// Every rule is checked again by the server; this only makes betting pleasant.
(function () {
  "use strict";

  const game = document.getElementById("game");
  if (!game) return;

  const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  const csrfToken = csrf ? decodeURIComponent(csrf.split("=")[1]) : "";
  const stakes = new Map(); // spot → minor units
  const history = []; // [spot, amount] for undo
  let lastBets = []; // the [spot, amount] placings of this session's previous spin
  const spots = Array.from(game.querySelectorAll(".spot"));
  const totalEl = document.getElementById("total");
  const statusEl = document.getElementById("status");
  const resultEl = document.getElementById("result");
  const balanceEl = document.getElementById("balance");
  const spinButton = document.getElementById("spin");
  const repeatButton = document.getElementById("repeat");
  const roundMax = Number(game.dataset.roundMax);
  const maxPerSpot = Number(game.dataset.max);

  function dollars(cents) {
    const sign = cents < 0 ? "-" : "";
    const abs = Math.abs(cents);
    const whole = Math.floor(abs / 100).toLocaleString("en-US");
    return `${sign}$${whole}.${String(abs % 100).padStart(2, "0")}`;
  }

  function chip() {
    const checked = game.querySelector('input[name="chip"]:checked');
    return checked ? Number(checked.value) : 0;
  }

  function total() {
    let sum = 0;
    stakes.forEach((value) => (sum += value));
    return sum;
  }

  function render() {
    spots.forEach((button) => {
      const stake = stakes.get(button.dataset.spot) || 0;
      button.querySelector(".stake").textContent = stake ? dollars(stake) : "";
      button.classList.toggle("has-stake", stake > 0);
      const label = button.getAttribute("title");
      button.setAttribute("aria-label", stake ? `${label}, ${dollars(stake)} staked` : label);
    });
    totalEl.textContent = dollars(total());
    totalEl.dataset.cents = String(total());
    spinButton.disabled = stakes.size === 0;
    if (repeatButton) repeatButton.disabled = lastBets.length === 0;
  }

  function say(text, isError) {
    statusEl.textContent = text;
    statusEl.classList.toggle("error", Boolean(isError));
  }

  // While a spin's outcome is unknown (network failure, server error), its key is kept and
  // the bets are frozen: pressing Spin again retries the same bets with the same key, so
  // a round the server did play is shown, never played twice.
  function frozen() {
    if (!game.dataset.pendingKey) return false;
    say("The last spin's result is not known yet: press Spin to ask again.", true);
    return true;
  }

  // Puts ``amount`` on ``spot`` if the limits allow it; says why not otherwise.
  function placeAmount(spot, amount) {
    if (frozen()) return false;
    const next = (stakes.get(spot) || 0) + amount;
    if (next > maxPerSpot) {
      say(`The most on one spot is ${dollars(maxPerSpot)}.`, true);
      return false;
    }
    if (total() + amount > roundMax) {
      say(`The most in one round is ${dollars(roundMax)}.`, true);
      return false;
    }
    stakes.set(spot, next);
    history.push([spot, amount]);
    say("");
    render();
    return true;
  }

  function place(button) {
    placeAmount(button.dataset.spot, chip());
  }

  // "Repeat last bet": the previous spin's placings again, one by one as if clicked, so
  // the per-spot and per-round limits are checked as usual; it stops at the first refused.
  function repeatLast() {
    for (const [spot, amount] of lastBets) {
      if (!placeAmount(spot, amount)) return;
    }
  }

  function clearHighlights() {
    game.querySelectorAll(".winner").forEach((el) => el.classList.remove("winner"));
  }

  spots.forEach((button) => button.addEventListener("click", () => place(button)));
  document.getElementById("undo").addEventListener("click", () => {
    if (frozen()) return;
    const last = history.pop();
    if (!last) return;
    const [spot, amount] = last;
    const left = (stakes.get(spot) || 0) - amount;
    if (left > 0) stakes.set(spot, left);
    else stakes.delete(spot);
    render();
  });
  document.getElementById("clear").addEventListener("click", () => {
    if (frozen()) return;
    stakes.clear();
    history.length = 0;
    clearHighlights();
    render();
  });

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return `k${Date.now()}${Math.random().toString(36).slice(2)}`;
  }

  async function spin() {
    const wagers = Array.from(stakes.entries()).map(([spot, stake]) => {
      const button = game.querySelector(`.spot[data-spot="${CSS.escape(spot)}"]`);
      const numbers = button.dataset.numbers ? button.dataset.numbers.split(",").map(Number) : [];
      return { kind: button.dataset.kind, numbers, stake };
    });
    spinButton.disabled = true;
    clearHighlights();
    game.classList.add("no-more-bets");
    say("No more bets.");
    let response;
    try {
      response = await fetch(game.dataset.api, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
        credentials: "same-origin",
        body: JSON.stringify({
          offering: Number(game.dataset.offering),
          idempotency_key: game.dataset.pendingKey || (game.dataset.pendingKey = newKey()),
          wagers,
        }),
      });
    } catch (error) {
      game.classList.remove("no-more-bets");
      spinButton.disabled = false;
      return say("The table could not be reached. Press Spin to ask again for the same bets.", true);
    }
    const body = await response.json().catch(() => ({}));
    game.classList.remove("no-more-bets");
    if (response.status >= 500) {
      spinButton.disabled = false; // outcome unknown: keep the key, retry the same bets
      return say("The table did not answer properly. Press Spin to ask again for the same bets.", true);
    }
    if (!response.ok) {
      delete game.dataset.pendingKey; // refused (4xx): nothing was played; a new try, a new key
      spinButton.disabled = false;
      if (response.status === 409 && body.notice) return showNotice(body.notice);
      if (response.status === 401) {
        // The session ended (15 minutes without activity): the page itself signs in again.
        spinButton.disabled = true;
        say(`${body.detail || "Your session ended."} `, true);
        const again = document.createElement("a");
        again.href = `/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`;
        again.textContent = "Sign in again";
        statusEl.appendChild(again);
        return;
      }
      return say(body.detail || `The bet was refused (${response.status}).`, true);
    }
    delete game.dataset.pendingKey;
    show(body);
  }

  // The notice of time and money played since sign-in (§ 814a.1): the next round waits
  // until the player has read it; the bets on the layout stay where they are.
  function showNotice(notice) {
    spinButton.disabled = true;
    let panel = document.getElementById("play-notice");
    if (!panel) {
      panel = document.createElement("section");
      panel.id = "play-notice";
      panel.className = "play-notice";
      panel.setAttribute("role", "alert");
      game.insertBefore(panel, game.firstChild);
    }
    panel.innerHTML = "";
    const heading = document.createElement("h2");
    heading.textContent = "Your time and money played";
    const words = document.createElement("p");
    words.textContent = notice.words;
    const wait = document.createElement("p");
    wait.textContent = "Your next game waits until you have read this.";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "I have read this: play on";
    button.addEventListener("click", async () => {
      button.disabled = true;
      const answer = await fetch(`/api/sessions/${encodeURIComponent(notice.session)}/notice/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
        credentials: "same-origin",
        body: JSON.stringify({ number: notice.number }),
      }).catch(() => null);
      if (!answer || !answer.ok) {
        button.disabled = false;
        const refusal = answer ? await answer.json().catch(() => ({})) : {};
        return say(refusal.detail || "That did not reach the table. Press the button again.", true);
      }
      panel.remove();
      spinButton.disabled = total() === 0;
      say("Thank you. Press Spin to play your bets.");
    });
    panel.append(heading, words, wait, button);
    button.focus();
    say("Read the notice of your time and money played before your next game.", true);
  }

  function show(round) {
    const segment = document.getElementById(`segment-${round.outcome}`);
    if (segment) segment.classList.add("winner");
    round.winning_spots.forEach((spot) => {
      const button = game.querySelector(`.spot[data-spot="${CSS.escape(spot)}"]`);
      if (button) button.classList.add("winner");
    });
    balanceEl.textContent = dollars(round.balance_after);
    balanceEl.dataset.cents = String(round.balance_after);
    say(`${round.outcome} ${round.outcome_colour} wins.`);
    resultEl.hidden = false;
    resultEl.dataset.round = String(round.id);
    resultEl.dataset.outcome = String(round.outcome);
    const rows = round.wagers
      .map((w) => `<li>${w.label}: staked ${dollars(w.stake)}, returned ${dollars(w.returned)}</li>`)
      .join("");
    const link = game.dataset.roundUrl.replace("/0/", `/${round.id}/`);
    resultEl.innerHTML =
      `<h2>Round #${round.id}: <span class="outcome">${round.outcome}</span> (${round.outcome_colour})</h2>` +
      `<ul>${rows}</ul><p>Staked ${dollars(round.total_staked)}, returned ${dollars(round.total_returned)}. ` +
      `<a href="${link}">Full record</a></p>`;
    lastBets = history.slice();
    stakes.clear();
    history.length = 0;
    render();
    remember(round, link);
  }

  // As the pages show times: Pennsylvania time with its zone, "2026-11-30 10:26:12 EST".
  const paClock = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit",
    hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZoneName: "short",
  });
  function pennsylvaniaTime(iso) {
    const part = Object.fromEntries(paClock.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second} ${part.timeZoneName}`;
  }

  // Each column's name as its header shows it, for the cells' labels at phone width (the
  // list's rows are cards there, each cell named by its column); none for a column whose
  // name is only read out (the replay links', as the page's own rows have none).
  function columnLabels(table) {
    return Array.from(table.querySelectorAll("thead th")).map((th) =>
      th.querySelector(".visually-hidden") ? "" : th.textContent.replace(/[▲▼]/g, "").trim());
  }

  // Put the round at the top of "Your last games" without reloading the page, its cells
  // labelled as the page's own rows are.
  function remember(round, link) {
    const table = document.querySelector(".recent table.rounds");
    const body = table && table.tBodies[0];
    if (!body) return;
    body.querySelectorAll("tr.empty").forEach((empty) => empty.remove());
    const labels = columnLabels(table);
    const row = body.insertRow(0);
    const cells = [`#${round.id}`, pennsylvaniaTime(round.ended_at), String(round.outcome),
      dollars(round.total_staked), dollars(round.total_returned), dollars(round.balance_after),
      "Replay"];
    cells.forEach((text, index) => {
      const cell = row.insertCell();
      if (labels[index]) cell.dataset.label = labels[index];
      if (index === 0 || index === cells.length - 1) {
        const anchor = document.createElement("a");
        anchor.href = index === 0 ? link : `${link}replay/`;
        anchor.textContent = text;
        if (index !== 0) anchor.setAttribute("aria-label", `Replay game #${round.id}`);
        cell.appendChild(anchor);
      } else {
        cell.textContent = text;
      }
    });
  }

  spinButton.addEventListener("click", spin);
  if (repeatButton) repeatButton.addEventListener("click", repeatLast);
  render();
})();
