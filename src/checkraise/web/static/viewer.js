// The solution viewer: a solved spot's tree, browsed by clicking actions and cards.
"use strict";

const RANKS = "AKQJT98765432";
let line = [];
let node = null;
const $ = (id) => document.getElementById(id);

function className(row, col) {
  if (row === col) return RANKS[row] + RANKS[row];
  const hi = Math.min(row, col), lo = Math.max(row, col);
  return RANKS[hi] + RANKS[lo] + (col > row ? "s" : "o");
}

async function go(tokens) {
  $("error").textContent = "";
  const params = new URLSearchParams({ name: $("solution").value, line: tokens.join(" ") });
  try {
    node = await getJSON(`/api/solutions/node?${params}`);
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  line = tokens;
  render();
}

function render() {
  const crumbs = [el("a", "", "root")];
  crumbs[0].onclick = () => go([]);
  line.forEach((token, k) => {
    crumbs.push(document.createTextNode(" › "));
    const a = el("a", "", token);
    a.onclick = () => go(line.slice(0, k + 1));
    crumbs.push(a);
  });
  $("line").replaceChildren(...crumbs);
  showCards($("board"), node.board);
  $("spot-info").textContent = `pot ${node.pot}, stack ${node.stack}`;
  const choices = $("choices");
  choices.replaceChildren();
  $("grid").replaceChildren();
  $("legend").replaceChildren();
  $("detail").textContent = "Click a hand class.";
  document.body.dataset.kind = node.kind;
  document.body.dataset.line = line.join(" ");
  if (node.kind === "chance") {
    $("node-info").textContent = "Deal the next card:";
    choices.classList.add("cards-pick");
    node.cards.forEach((c) => {
      const b = el("button", "card-btn");
      b.dataset.card = c;
      b.appendChild(cardElement(c));
      b.onclick = () => go([...line, c]);
      choices.appendChild(b);
    });
    return;
  }
  choices.classList.remove("cards-pick");
  if (node.kind === "end") {
    $("node-info").textContent = "The hand is over here.";
    return;
  }
  $("node-info").textContent = `${node.actor} to act`;
  node.actions.forEach((a) => {
    const b = el("button", "action-btn", `${a.name} ${(100 * (a.frequency ?? 0)).toFixed(1)}%`);
    b.dataset.action = a.label;
    b.style.borderColor = a.colour;
    b.style.borderWidth = "3px";
    b.onclick = () => go([...line, a.label]);
    choices.appendChild(b);
    const key = el("span");
    const swatch = el("span", "swatch");
    swatch.style.background = a.colour;
    key.append(swatch, `${a.label} (${a.name})`);
    $("legend").appendChild(key);
  });
  const byClass = new Map(node.classes.map((c) => [c.class, c]));
  const cells = [];
  for (let row = 0; row < 13; row++) {
    for (let col = 0; col < 13; col++) {
      const name = className(row, col);
      const info = byClass.get(name);
      const cell = el("div", "cell");
      cell.dataset.class = name;
      cell.appendChild(el("span", "label", name));
      if (info) {
        const bars = el("div", "bars");
        bars.style.height = `${Math.max(8, 100 * info.share)}%`;
        info.strategy.forEach((f, j) => {
          const bar = el("span");
          bar.style.width = `${100 * f}%`;
          bar.style.background = node.actions[j].colour;
          bars.appendChild(bar);
        });
        cell.appendChild(bars);
        if (info.ev !== null) cell.appendChild(el("span", "ev", info.ev.toFixed(1)));
        cell.onclick = () => detail(cell, info);
      }
      cells.push(cell);
    }
  }
  $("grid").replaceChildren(...cells);
}

function detail(cell, info) {
  document.querySelectorAll(".cell.selected").forEach((c) => c.classList.remove("selected"));
  cell.classList.add("selected");
  const box = $("detail");
  box.replaceChildren(el("strong", "", info.class));
  box.appendChild(el("div", "", `${info.combos.toFixed(2)} combos reach here`));
  info.strategy.forEach((f, j) =>
    box.appendChild(el("div", "", `${node.actions[j].name}: ${(100 * f).toFixed(1)}%`)));
  box.appendChild(el("div", "ev-detail", `EV ${info.ev === null ? "–" : info.ev.toFixed(2)} chips`));
  box.appendChild(el("div", "", `equity ${info.equity === null ? "–" : (100 * info.equity).toFixed(1) + "%"}`));
}

async function setup() {
  $("four-colour").checked = fourColourSaved();
  fourColour($("four-colour").checked);
  $("four-colour").onchange = () => fourColour($("four-colour").checked);
  const body = await getJSON("/api/solutions");
  body.solutions.forEach((n) => $("solution").appendChild(new Option(n, n)));
  if (!body.solutions.length) {
    $("error").textContent = "No solutions: start the server with --solutions DIR " +
      "(a folder of `checkraise spot solve --out` results).";
    return;
  }
  $("solution").onchange = () => go([]);
  await go([]);
}

setup();
