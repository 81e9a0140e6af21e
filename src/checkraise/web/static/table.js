// The table page: a WebSocket to the server, the table drawn from each view it sends.
// The server sends every change as a step (log + view); bot steps are shown one by one
// at the chosen speed. No timer runs on the person's own decisions.
"use strict";

const TOKEN_KEY = "checkraise-token";
let socket = null;
let tableId = null;
let view = null;
const queue = [];
let playing = false;
let decisionShown = null;

const $ = (id) => document.getElementById(id);

async function sessionToken(fresh = false) {
  let token = fresh ? null : sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    const response = await fetch("/api/session", { method: "POST" });
    token = (await response.json()).token;
    sessionStorage.setItem(TOKEN_KEY, token);
  }
  return token;
}

async function connect(fresh = false) {
  const token = await sessionToken(fresh);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    // An unknown session (the server restarted) gets a new token; otherwise reconnect.
    setTimeout(() => connect(event.code === 4401), 1000);
  };
}

function send(message) {
  $("error").textContent = "";
  // Until the answer comes the buttons are off, so one click sends one move.
  document.body.dataset.turn = "sent";
  for (const id of ["fold", "checkcall", "raise", "amount", "amount-range"]) $(id).disabled = true;
  socket.send(JSON.stringify(message));
}

function receive(event) {
  if (event.type === "session") {
    const tables = event.tables;
    if (tables.length && tableId === null) tableId = tables[0].table;
    const mine = tables.find((t) => t.table === tableId);
    if (mine) render(mine);
    document.body.dataset.connected = "yes";
  } else if (event.type === "steps") {
    tableId = event.table;
    queue.push(...event.steps);
    play();
  } else if (event.type === "error") {
    $("error").textContent = event.message;
    document.body.dataset.errors = String(Number(document.body.dataset.errors || 0) + 1);
    if (event.view && event.table === tableId) render(event.view);
    else renderControls(view);
  } else if (event.type === "closed" && event.table === tableId) {
    tableId = null;
  }
}

// Show queued steps in order; a step after which a bot acts waits for the chosen pace.
async function play() {
  if (playing) return;
  playing = true;
  while (queue.length) {
    const step = queue.shift();
    render(step.view);
    const pace = Number($("speed").value);
    if (queue.length && pace > 0) await new Promise((r) => setTimeout(r, pace));
  }
  playing = false;
  renderControls(view);
}

function render(next) {
  view = next;
  document.body.dataset.hand = String(next.hand);
  $("table-info").textContent = `table ${next.table}, seed ${next.seed}, hand ${next.hand}`;
  renderSeats(next);
  showCards($("board"), next.board);
  $("pot").textContent = next.hand ? `Pot ${next.pot}` : "";
  const log = $("log");
  log.replaceChildren(...next.log.map((line) => el("li", "", line)));
  log.scrollTop = log.scrollHeight;
  renderSession(next.session);
  renderCoach(next.coach);
  renderResult(next);
  if (!playing) renderControls(next);
}

function renderSeats(v) {
  const felt = $("felt");
  felt.querySelectorAll(".seat").forEach((n) => n.remove());
  v.players.forEach((p, k) => {
    const seat = el("div", "seat");
    seat.id = `seat-${k}`;
    const where = seatPosition(k, v.players.length);
    seat.style.left = `${where.left}%`;
    seat.style.top = `${where.top}%`;
    seat.classList.toggle("acting", !!p.acting);
    seat.classList.toggle("folded", !!p.folded);
    const name = el("div", "name", p.name);
    if (p.button) name.appendChild(el("span", "dealer", "D"));
    seat.appendChild(name);
    const cards = el("div", "cards");
    showCards(cards, p.cards, p.folded || !v.hand ? 0 : 2);
    seat.appendChild(cards);
    const info = el("div", "info", `${p.position || ""} · ${p.stack}${p.all_in ? " all-in" : ""}`);
    info.classList.add("stack");
    seat.appendChild(info);
    if (p.bet) seat.appendChild(el("div", "bet", String(p.bet)));
    if (p.net !== null && p.net !== undefined && v.over) {
      const net = el("div", `net ${p.net > 0 ? "won" : p.net < 0 ? "lost" : ""}`, signed(p.net));
      seat.appendChild(net);
    }
    felt.appendChild(seat);
  });
}

function renderCoach(advice) {
  $("coach-panel").hidden = !advice;
  if (!advice) return;
  const rows = advice.opponents.map((o) => {
    const tr = el("tr", "coach-row");
    tr.dataset.name = o.name;
    const top = o.top.map((t) => `${t.class} ${(100 * t.share).toFixed(1)}%`).join(", ");
    tr.append(el("td", "", o.name), el("td", "coach-equity", `${(100 * o.equity).toFixed(1)}%`),
              el("td", "muted", `most likely: ${top}`));
    return tr;
  });
  $("coach-table").replaceChildren(...rows);
  $("coach-all").textContent =
    `Against all of them at once (the fold bot's win rate): ${(100 * advice.win_rate).toFixed(1)}%`;
}

function renderResult(v) {
  const box = $("result");
  if (v.over && v.result) {
    const chips = v.result.you;
    box.dataset.chips = String(chips);
    const word = chips > 0 ? "You won" : chips < 0 ? "You lost" : "You broke even:";
    box.textContent = `${word} ${Math.abs(chips)} chips (${signed(v.result.you_bb, 2)} bb)`;
  } else {
    box.textContent = "";
    delete box.dataset.chips;
  }
}

function renderSession(s) {
  $("session-net").textContent = `${signed(s.net_bb, 2)} bb over ${s.hands} hands`;
  $("session-net").dataset.bb = String(s.net_bb);
  const svg = $("chart");
  const values = [0, ...s.chart];
  const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (k) => 30 + (280 * k) / Math.max(1, values.length - 1);
  const y = (v) => 10 + 115 * (1 - (v - lo) / span);
  const points = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.innerHTML =
    `<line x1="30" x2="310" y1="${y(0)}" y2="${y(0)}" stroke="#bbb" stroke-dasharray="3 3"/>` +
    `<text x="2" y="${y(hi) + 4}" font-size="10">${hi.toFixed(1)}</text>` +
    `<text x="2" y="${y(lo) + 4}" font-size="10">${lo.toFixed(1)}</text>` +
    `<text x="170" y="138" font-size="10" text-anchor="middle">hands (bb won)</text>` +
    `<polyline fill="none" stroke="#c0392b" stroke-width="2" points="${points}"/>`;
}

// The action bar: amounts in the box and on the slider count this street (a card room's
// "raise to"); the message carries the hand total the engine counts.
function renderControls(v) {
  const legal = v && !v.over ? v.legal : null;
  const mine = !!legal && !playing && queue.length === 0;
  document.body.dataset.turn = mine ? "you" : v && v.over ? "over" : "bots";
  $("fold").disabled = !mine || !legal.fold;
  $("checkcall").disabled = !mine;
  $("checkcall").textContent = legal && legal.call ? `Call ${legal.call}` : "Check";
  const canRaise = mine && legal.min_to !== null;
  for (const id of ["amount-range", "amount", "raise"]) $(id).disabled = !canRaise;
  const presets = $("presets");
  presets.replaceChildren();
  if (canRaise) {
    const lo = legal.min_to - legal.base, hi = legal.max_to - legal.base;
    const decision = `${v.table}/${v.hand}/${v.log.length}`;
    for (const id of ["amount-range", "amount"]) {
      $(id).min = lo; $(id).max = hi; $(id).step = 1;
      if (decisionShown !== decision) $(id).value = lo;  // each decision starts at the minimum
    }
    decisionShown = decision;
    $("raise").textContent = legal.opened ? "Raise to" : "Bet";
    $("range-hint").textContent = `${lo} – ${hi}`;
    legal.presets.forEach((p) => {
      const b = el("button", "preset", p.label);
      b.dataset.to = String(p.to);
      b.onclick = () => send({ type: "act", table: tableId, action: "raise", to: p.to });
      presets.appendChild(b);
    });
  } else {
    $("range-hint").textContent = "";
  }
  $("next").hidden = !(v && v.over && v.hand > 0 && !playing);
}

$("fold").onclick = () => send({ type: "act", table: tableId, action: "fold" });
$("checkcall").onclick = () => send({
  type: "act", table: tableId, action: view.legal.call ? "call" : "check" });
$("raise").onclick = () => send({
  type: "act", table: tableId, action: "raise",
  to: Math.round(Number($("amount").value)) + view.legal.base });
$("amount-range").oninput = () => { $("amount").value = $("amount-range").value; };
$("amount").oninput = () => { $("amount-range").value = $("amount").value; };
$("next").onclick = () => send({ type: "deal", table: tableId });
$("four-colour").onchange = () => fourColour($("four-colour").checked);

// One bot and one stack (in big blinds) per other seat.
function botChoices(info) {
  const box = $("bot-choices");
  const n = Number($("seats").value);
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const oldStacks = [...box.querySelectorAll("input")].map((s) => s.value);
  box.replaceChildren();
  for (let k = 1; k < n; k++) {
    const label = el("label", "", `Seat ${k + 1} `);
    const select = el("select", "bot");
    info.bots.filter((b) => n === 2 || !info.heads_up_only.includes(b))
      .forEach((b) => select.appendChild(new Option(b, b)));
    select.value = old[k - 1] && [...select.options].some((o) => o.value === old[k - 1])
      ? old[k - 1] : select.options[0].value;
    const stack = el("input", "seat-stack");
    Object.assign(stack, { type: "number", min: info.min_stack_bb, max: info.max_stack_bb,
                           value: oldStacks[k - 1] || $("stack").value, title: "stack in big blinds" });
    stack.style.width = "4.5em";
    label.append(select, " ", stack, " bb");
    box.appendChild(label);
  }
}

async function setup() {
  $("four-colour").checked = fourColourSaved();
  fourColour($("four-colour").checked);
  const info = await getJSON("/api/bots");
  for (let n = 2; n <= info.max_seats; n++) $("seats").appendChild(new Option(String(n), String(n)));
  $("seats").value = "6";
  $("seats").onchange = () => botChoices(info);
  botChoices(info);
  $("setup").onsubmit = (e) => {
    e.preventDefault();
    const seed = $("seed").value;
    const message = {
      type: "new_table",
      bots: [...document.querySelectorAll("#bot-choices select")].map((s) => s.value),
      stacks_bb: [$("stack"), ...document.querySelectorAll("#bot-choices input")]
        .map((s) => Number(s.value)),
    };
    if (seed !== "") message.seed = Number(seed);
    if ($("coach").checked) message.coach = true;
    if (tableId !== null) send({ type: "close_table", table: tableId });
    tableId = null;
    send(message);
  };
  await connect();
}

setup();
