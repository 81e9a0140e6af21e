// Shared by the three pages: cards drawn as HTML + SVG, the four-colour deck, small helpers.
"use strict";

const SUIT_SVG = {
  d: '<polygon points="12,1 22,12 12,23 2,12"/>',
  h: '<path d="M12 22C5 16 1 12 1 7.5A5.3 5.3 0 0 1 12 5a5.3 5.3 0 0 1 11 2.5C23 12 19 16 12 22Z"/>',
  s: '<path d="M12 1C18 8 23 11.5 23 15.2a4.6 4.6 0 0 1-8.6 2.3L16 23H8l1.6-5.5A4.6 4.6 0 0 1 1 15.2C1 11.5 6 8 12 1Z"/>',
  c: '<circle cx="12" cy="6.5" r="4.7"/><circle cx="6.3" cy="14" r="4.7"/>' +
     '<circle cx="17.7" cy="14" r="4.7"/><path d="M10.6 13 9 23h6l-1.6-10Z"/>',
};
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

// A card element for text such as "Ah"; null draws a face-down card.
function cardElement(text) {
  const el = document.createElement("span");
  if (!text) {
    el.className = "card back";
    el.title = "hidden card";
    return el;
  }
  const rank = text[0].toUpperCase();
  const suit = text[1].toLowerCase();
  el.className = `card ${suit}`;
  el.dataset.card = rank + suit;
  el.title = `${rank === "T" ? "10" : rank} of ${SUIT_NAMES[suit]}`;
  el.innerHTML = `<span class="rank">${rank === "T" ? "10" : rank}</span>` +
    `<svg class="suit" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">${SUIT_SVG[suit]}</svg>`;
  return el;
}

// Cards into a container: a list of texts, or `hidden` face-down cards when the list is null.
function showCards(container, cards, hidden = 0) {
  container.replaceChildren();
  if (cards) {
    cards.forEach((c) => container.appendChild(cardElement(c)));
  } else {
    for (let k = 0; k < hidden; k++) container.appendChild(cardElement(null));
  }
}

function fourColour(on) {
  document.body.classList.toggle("four-colour", on);
  localStorage.setItem("checkraise-four-colour", on ? "1" : "0");
}

function fourColourSaved() {
  return localStorage.getItem("checkraise-four-colour") === "1";
}

async function getJSON(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function signed(x, digits = 0) {
  const text = Number(x).toFixed(digits);
  return x > 0 ? `+${text}` : text;
}

// Seats around an ellipse, player 0 at the bottom centre, the others clockwise.
function seatPosition(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { left: 50 + 47 * Math.cos(angle), top: 50 + 47 * Math.sin(angle) };
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
