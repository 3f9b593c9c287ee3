"use strict";
// One seat's table. The seat token is the link's fragment: it never leaves this page except in
// the X-Seat-Token header and as the first WebSocket message. Everything drawn comes from the
// seat's view, which the server builds from that seat's observation alone.

const tableId = location.pathname.split("/").pop();
const token = decodeURIComponent(location.hash.slice(1));
let current = null;
let socket = null;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function cardNode(card, tag = "div") {
  const node = el(tag, null, `card ${card.colour}` + (card.numeral ? " numeral" : ""));
  node.dataset.card = card.card;
  node.setAttribute("aria-label", card.card);
  node.append(el("span", card.rank, "rank"));
  if (card.symbol) node.append(el("span", card.symbol, "symbol"));
  if (card.suit) node.title = `${card.card} (${card.suit})`;
  return node;
}

async function send(move) {
  const reply = await fetch(`/api/tables/${tableId}/move`, {
    method: "POST", headers: {"content-type": "application/json", "x-seat-token": token},
    body: JSON.stringify({move})});
  const data = await reply.json();
  const message = document.getElementById("message");
  if (!reply.ok) {
    message.textContent = data.error;
    return;
  }
  message.textContent = "";
  render(data);
}

function drawPlayers(view) {
  const box = document.getElementById("opponents");
  box.replaceChildren();
  const me = view.players.findIndex(p => p.you);
  const order = view.players.slice(me + 1).concat(view.players.slice(0, me));
  for (const p of order) box.append(seatBox(p, view));
  const mine = document.getElementById("my-seat");
  mine.replaceChildren(seatBox(view.players[me], view));
}

function seatBox(p, view) {
  const box = el("div", null, "seat" + (p.to_act ? " to-act" : "") + (p.active ? "" : " sitting-out"));
  box.dataset.seat = p.seat;
  const name = el("strong", p.seat + (p.name ? ` · ${p.name}` : "") + (p.you ? " (you)" : ""));
  const who = p.kind !== "person" ? p.kind + " bot" : p.online ? "person, at the table" : "person, away";
  box.append(name, el("span", who, "kind" + (p.kind === "person" && !p.online ? " away" : "")));
  const marks = [];
  if (p.dealer) marks.push("dealer");
  if (p.forehand) marks.push("forehand");
  if (view.contract && view.contract.declarer === p.seat) marks.push("declarer");
  if (view.contract && view.contract.partner && view.contract.partner.includes(p.seat)) marks.push("partner");
  box.append(el("span", marks.join(", "), "marks"), el("span", `${p.cards} cards`, "count"),
             el("span", `score ${p.score}`, "score"));
  return box;
}

function drawTrick(view) {
  const trick = document.getElementById("trick");
  trick.replaceChildren();
  for (const played of view.trick) {
    const spot = el("div", null, "played");
    spot.append(cardNode(played), el("span", played.seat, "by"));
    trick.append(spot);
  }
  const last = document.getElementById("last-trick");
  last.replaceChildren();
  if (view.last_trick && !view.trick.length) {
    last.append(el("span", `trick ${view.last_trick.number} to ${view.last_trick.winner}: `));
    for (const played of view.last_trick.cards) last.append(cardNode(played, "span"));
  }
}

function drawFacts(view) {
  const facts = document.getElementById("facts");
  facts.replaceChildren();
  const add = (term, value) => { facts.append(el("dt", term)); const d = el("dd"); d.append(value); facts.append(d); };
  add("deal", document.createTextNode(String(view.observation.deal)));
  if (view.contract) {
    const by = view.contract.declarer ? ` by ${view.contract.declarer}` : ", nobody declaring";
    add("contract", document.createTextNode(`${view.contract.title}${by}`));
    if (view.contract.called) add("called", cardNode(view.contract.called, "span"));
    if (view.contract.called || view.contract.partner) {
      const partner = view.contract.partner;
      add("partner", document.createTextNode(partner === null ? "not known yet" :
                                              partner.length ? partner.join(", ") : "none: alone"));
    }
  }
  for (const fact of view.facts) {
    if (fact.cards) {
      const row = el("span");
      for (const card of fact.cards) row.append(cardNode(card, "span"));
      add(fact.title, row);
    } else {
      add(fact.title, document.createTextNode(fact.text));
    }
  }
}

function drawHand(view) {
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  const legal = new Set(view.moves.cards);
  hand.classList.toggle("playing", legal.size > 0);
  for (const card of view.hand) {
    const button = cardNode(card, "button");
    const allowed = legal.has(card.card);
    button.classList.toggle("disabled", !allowed);
    button.setAttribute("aria-disabled", allowed ? "false" : "true");
    button.addEventListener("click", () => send(card.card));
    hand.append(button);
  }
  const other = document.getElementById("played-for");
  other.replaceChildren();
  if (view.played_for.length) other.append(el("span", "you play these for another seat: "));
  for (const card of view.played_for) {
    const button = cardNode(card, "button");
    button.addEventListener("click", () => send(card.card));
    other.append(button);
  }
  const decisions = document.getElementById("decisions");
  decisions.replaceChildren();
  for (const d of view.moves.decisions) {
    const button = el("button", d.label, "decision");
    button.title = d.words;
    button.dataset.move = d.move;
    button.addEventListener("click", () => send(d.move));
    decisions.append(button);
  }
}

async function askHint() {
  const reply = await fetch(`/api/tables/${tableId}/hint`, {headers: {"x-seat-token": token}});
  const data = await reply.json();
  document.getElementById("hint").textContent = reply.ok ? `the heuristic player would play ${data.label}` : data.error;
  for (const node of document.querySelectorAll("#hand [data-card], #decisions [data-move]")) {
    node.classList.toggle("hinted", reply.ok && (node.dataset.card === data.move || node.dataset.move === data.move));
  }
}

function drawTalk(view) {
  const talk = document.getElementById("talk");
  talk.replaceChildren(...view.talk.filter(line => line.trim()).map(line => el("li", line.trim())));
  talk.scrollTop = talk.scrollHeight;
}

function drawHistory(view) {
  const table = document.getElementById("history");
  table.replaceChildren();
  if (!view.deals.length) {
    table.append(el("caption", "no deal is finished yet"));
    return;
  }
  const seats = view.players.map(p => p.seat);
  const head = el("tr");
  head.append(el("th", "deal"), el("th", "contract"), el("th", "items"), ...seats.map(s => el("th", s)));
  table.append(head);
  for (const deal of view.deals) {
    const row = el("tr");
    const side = deal.contract && deal.contract.side.length ? ` (${deal.contract.side.join(", ")})` : "";
    const contract = deal.contract ? `${deal.contract.title}${side}` : "";
    const items = deal.items.map(i => `${i.item} ${i.value} for the ${i.side}`).join("; ") +
      (deal.multiplier !== 1 ? ` ×${deal.multiplier}` : "");
    row.append(el("td", String(deal.number)), el("td", contract), el("td", items));
    for (const s of seats) {
      const pay = deal.payments[s] || 0;
      row.append(el("td", `${pay > 0 ? "+" : ""}${pay} → ${deal.scores[s]}`, pay > 0 ? "plus" : pay < 0 ? "minus" : ""));
    }
    table.append(row);
  }
}

function drawResult(view) {
  const box = document.getElementById("result");
  box.hidden = !view.result;
  if (!view.result) return;
  box.replaceChildren();
  const scores = Object.entries(view.result.scores).map(([s, v]) => `${s} ${v}`).join(", ");
  box.append(el("h2", view.result.winner ? `Match over: ${view.result.winner} ${view.result.winners.length > 1 ? "win" : "wins"}` : "Match over"),
             el("p", `Final scores: ${scores}`));
  if (view.result.stopped) box.append(el("p", view.result.stopped, "error"));
  const link = el("button", "Download the log", "download");
  link.id = "download";
  link.addEventListener("click", download);
  const again = el("button", view.again ? "Join the next match" : "Play again", "decision");
  again.id = "again";
  again.addEventListener("click", playAgain);
  box.append(link, document.createTextNode(" "), again);
}

async function playAgain() {
  const reply = await fetch(`/api/tables/${tableId}/again`, {method: "POST", headers: {"x-seat-token": token}});
  const data = await reply.json();
  if (!reply.ok) {
    document.getElementById("message").textContent = data.error;
    return;
  }
  location.assign(data.link);
}

async function download() {
  const reply = await fetch(`/api/tables/${tableId}/log`, {headers: {"x-seat-token": token}});
  const blob = await reply.blob();
  const link = el("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${tableId}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
}

function render(view) {
  if (current && view.step < current.step) return;
  current = view;
  document.title = `${view.title} — ${view.seat}`;
  document.getElementById("title").textContent = view.title;
  document.getElementById("message").textContent = view.failure || document.getElementById("message").textContent;
  document.getElementById("status").textContent = view.failure ? "the table stopped: a rule failed" :
    view.result ? "the match is over" :
    view.your_turn ? "your turn" : view.waiting_for ? `waiting for ${view.waiting_for}` : "dealing";
  document.body.classList.toggle("my-turn", view.your_turn);
  drawPlayers(view); drawTrick(view); drawFacts(view); drawHand(view);
  drawTalk(view); drawHistory(view); drawResult(view);
  document.getElementById("hint-button").hidden = !view.your_turn;
  document.getElementById("hint").textContent = "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  socket.addEventListener("open", () => socket.send(JSON.stringify({token})));
  socket.addEventListener("message", event => render(JSON.parse(event.data)));
  socket.addEventListener("close", event => {
    if (event.code === 4403) {
      document.getElementById("status").textContent = "this link opens no seat at this table";
      return;
    }
    setTimeout(connect, 1000);
  });
}

async function start() {
  const reply = await fetch(`/api/tables/${tableId}/view`, {headers: {"x-seat-token": token}});
  const data = await reply.json();
  if (!reply.ok) {
    document.getElementById("status").textContent = data.error;
    return;
  }
  render(data);
  connect();
}

document.getElementById("hint-button").addEventListener("click", askHint);
start();
