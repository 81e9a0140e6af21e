// The hand replayer: a hand from the database, action by action or street by street.
"use strict";

let hand = null;
let at = 0;
const $ = (id) => document.getElementById(id);

async function loadList() {
  $("error").textContent = "";
  const params = new URLSearchParams({ limit: $("limit").value });
  if ($("player").value) params.set("player", $("player").value);
  try {
    const body = await getJSON(`/api/hands?${params}`);
    const rows = body.hands.map((h) => {
      const tr = el("tr", "hand-row");
      tr.dataset.id = String(h.id);
      [h.id, `${h.site} ${h.hand_id}`, h.players.join(", "), h.board, h.pot]
        .forEach((v) => tr.appendChild(el("td", "", String(v))));
      tr.onclick = () => open(h.id);
      return tr;
    });
    $("hands").replaceChildren(...rows);
    document.body.dataset.listed = String(rows.length);
  } catch (e) {
    $("error").textContent = e.message;
  }
}

async function open(id) {
  $("error").textContent = "";
  try {
    hand = await getJSON(`/api/hands/${id}`);
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  document.querySelectorAll("tr.hand-row").forEach((tr) =>
    tr.classList.toggle("selected", tr.dataset.id === String(id)));
  $("hand-info").textContent = `${hand.site} hand ${hand.hand_id} · ${hand.table} · big blind ${hand.big_blind}`;
  const streets = [...new Set(hand.steps.map((s) => s.street))];
  $("streets").replaceChildren(...streets.map((name) => {
    const b = el("button", "street-btn", name);
    b.dataset.street = name;
    b.onclick = () => show(hand.steps.findIndex((s) => s.street === name));
    return b;
  }));
  show(0);
}

function show(k) {
  at = Math.max(0, Math.min(hand.steps.length - 1, k));
  const step = hand.steps[at];
  const last = at === hand.steps.length - 1;
  const felt = $("felt");
  felt.querySelectorAll(".seat").forEach((n) => n.remove());
  hand.players.forEach((p, k) => {
    const seat = el("div", "seat");
    seat.id = `seat-${k}`;
    const where = seatPosition(k, hand.players.length);
    seat.style.left = `${where.left}%`;
    seat.style.top = `${where.top}%`;
    seat.classList.toggle("acting", step.acting === k);
    seat.classList.toggle("folded", step.folded[k]);
    seat.appendChild(el("div", "name", p.name));
    const cards = el("div", "cards");
    showCards(cards, p.cards, 2);
    seat.appendChild(cards);
    seat.appendChild(el("div", "info", `${p.position} · ${step.stacks[k]}`));
    if (step.bets[k]) seat.appendChild(el("div", "bet", String(step.bets[k])));
    if (last) seat.appendChild(el("div", `net ${p.net > 0 ? "won" : p.net < 0 ? "lost" : ""}`, signed(p.net)));
    felt.appendChild(seat);
  });
  showCards($("board"), step.board);
  $("pot").textContent = `Pot ${step.pot}`;
  $("step-text").textContent = step.text;
  $("step-count").textContent = `(${step.street}, step ${at + 1} of ${hand.steps.length})`;
  document.body.dataset.step = String(at);
}

$("load").onclick = loadList;
$("start").onclick = () => hand && show(0);
$("prev").onclick = () => hand && show(at - 1);
$("next").onclick = () => hand && show(at + 1);
$("end").onclick = () => hand && show(hand.steps.length - 1);
$("four-colour").checked = fourColourSaved();
fourColour($("four-colour").checked);
$("four-colour").onchange = () => fourColour($("four-colour").checked);
loadList();
