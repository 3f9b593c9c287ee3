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
  node.setAttribute("aria-label", card.suit ? `${card.card} (${card.suit})` : card.card);
  node.append(el("span", card.rank, "rank"));
  if (card.pip && PIP_PATHS[card.pip]) node.append(pipNode(card.pip));
  else if (card.symbol) node.append(el("span", card.symbol, "symbol"));
  if (card.suit) node.title = `${card.card} (${card.suit})`;
  return node;
}

// The pips of packs whose rule file writes a suit's symbol as a letter (German, Swiss): drawn as small
// pictures in the suit's colour, so such a pack looks as it does at the table.
const PIP_PATHS = {
  hearts: ["M12 21C5 15 2 11 2 7.5A4.5 4.5 0 0 1 12 6a4.5 4.5 0 0 1 10 1.5C22 11 19 15 12 21z"],
  bells: ["M12 3C8.5 3 6.5 6.5 6.5 10.5L5 17h14l-1.5-6.5C17.5 6.5 15.5 3 12 3z", "M10 18.5a2 2 0 0 0 4 0z"],
  leaves: ["M12 2C5 8 5 15.5 12 20.5 19 15.5 19 8 12 2z", "M11.3 20h1.4v3h-1.4z"],
  acorns: ["M5 10c0-4 3.5-6 7-6s7 2 7 6z", "M7 10.5h10c0 5.5-2.5 9.5-5 11-2.5-1.5-5-5.5-5-11z", "M11.3 1h1.4v3.5h-1.4z"],
  shields: ["M4 3h16v8c0 6-8 10-8 10s-8-4-8-10z"],
  roses: ["M12 4a8 8 0 1 0 0.01 0z", "M12 8.5a3.5 3.5 0 1 0 0.01 0z"],
};

function pipNode(pip) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "pip");
  svg.setAttribute("aria-hidden", "true");
  for (const d of PIP_PATHS[pip]) {
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "currentColor");
    path.setAttribute("fill-rule", "evenodd");
    svg.append(path);
  }
  return svg;
}

async function send(move) {
  const reply = await fetch(`/api/tables/${tableId}/move`, {
    method: "POST", headers: {"content-type": "application/json", "x-seat-token": token},
    body: JSON.stringify({move})});
  const data = await reply.json();
  if (!reply.ok) {
    refused(data.plain || data.error, data.plain ? data.error : "");
    return;
  }
  refused("", "");
  render(data);
}

function refused(plain, why) {
  // The refusal in the table's words; the rule that refused it, with its place in the rule file, behind "Why?".
  document.getElementById("message").textContent = plain;
  const details = document.getElementById("why");
  details.hidden = !why;
  details.open = false;
  document.getElementById("why-text").textContent = why;
}

// Where the other seats sit around you, in the order play goes (clockwise: the next seat on your left).
const PLACES = {2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"],
                5: ["left", "top-left", "top-right", "right"], 6: ["left", "top-left", "top", "top-right", "right"]};

function placeOf(view, seat) {
  const seats = view.players.map(p => p.seat);
  const me = seats.indexOf(view.seat), n = seats.length;
  const r = (seats.indexOf(seat) - me + n) % n;
  if (r === 0) return "bottom";
  const places = (PLACES[n] || []).slice();
  if (view.direction === "anticlockwise") places.reverse();
  return places[r - 1] || "top";
}

function nameOf(view, seat) {
  return (view.names && view.names[seat]) || seat;
}

function named(view, text) {
  // A line of the table's talk or facts with each seat said by the name its person gave ("P3 plays" → "Cleo plays").
  const given = Object.entries(view.names || {}).filter(([seat, name]) => name !== seat);
  if (!given.length) return text;
  const escaped = given.map(([seat]) => seat.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\w])(${escaped.join("|")})(?![\\w])`, "g");
  return text.replace(pattern, seat => view.names[seat]);
}

function drawPlayers(view) {
  const spots = {top: document.getElementById("seats-top"), left: document.getElementById("seat-left"),
                 right: document.getElementById("seat-right")};
  for (const spot of Object.values(spots)) spot.replaceChildren();
  const rowOrder = ["top-left", "top", "top-right"];
  const others = view.players.filter(p => !p.you).map(p => [placeOf(view, p.seat), p]);
  others.sort((a, b) => rowOrder.indexOf(a[0]) - rowOrder.indexOf(b[0]));
  for (const [place, p] of others) {
    const box = seatBox(p, view);
    box.dataset.place = place;
    (spots[place] || spots.top).append(box);
  }
  const me = view.players.find(p => p.you);
  document.getElementById("my-seat").replaceChildren(seatBox(me, view));
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

let gathered = null;        // the last trick already gathered to its winner on this page

function playedNode(view, played) {
  const spot = el("div", null, `played at-${placeOf(view, played.seat)}`);
  spot.dataset.seat = played.seat;
  spot.append(cardNode(played), el("span", nameOf(view, played.seat), "by"));
  return spot;
}

function drawTrick(view) {
  // Each card lies before the seat that played it; a finished trick is gathered to its winner.
  const trick = document.getElementById("trick");
  trick.replaceChildren(...view.trick.map(played => playedNode(view, played)));
  const last = view.last_trick;
  const key = last ? `${view.deal}:${last.number}` : null;
  if (last && !view.trick.length && gathered !== null && key !== gathered) {
    const cards = last.cards.map(played => playedNode(view, played));
    trick.replaceChildren(...cards);
    const towards = placeOf(view, last.winner);
    setTimeout(() => cards.forEach(card => card.classList.add("gathered", `to-${towards}`)), 700);
    setTimeout(() => cards.forEach(card => card.remove()), 1500);
  }
  gathered = key;
  const line = document.getElementById("last-trick");
  line.replaceChildren();
  if (last && !view.trick.length) {
    line.append(el("span", `trick ${last.number} to ${nameOf(view, last.winner)}: `));
    for (const played of last.cards) line.append(cardNode(played, "span"));
  }
}

function drawFacts(view) {
  const facts = document.getElementById("facts");
  facts.replaceChildren();
  const add = (term, value) => { facts.append(el("dt", term)); const d = el("dd"); d.append(value); facts.append(d); };
  add("deal", document.createTextNode(String(view.deal)));
  if (view.contract) {
    const by = view.contract.declarer ? ` by ${nameOf(view, view.contract.declarer)}` : ", nobody declaring";
    add("contract", document.createTextNode(`${view.contract.title}${by}`));
    if (view.contract.called) add("called", cardNode(view.contract.called, "span"));
    if (view.contract.called || view.contract.partner) {
      const partner = view.contract.partner;
      add("partner", document.createTextNode(partner === null ? "not known yet" :
                                              partner.length ? partner.map(s => nameOf(view, s)).join(", ") : "none: alone"));
    }
  }
  for (const fact of view.facts) {
    if (fact.cards) {
      const row = el("span");
      for (const card of fact.cards) row.append(cardNode(card, "span"));
      add(fact.title, row);
    } else {
      add(fact.title, document.createTextNode(named(view, fact.text)));
    }
  }
}

function shortened(text, most) {
  // whole sentences up to ``most`` characters (at least the first)
  if (text.length <= most) return text;
  const sentences = text.match(/[^.]+\.(\s|$)/g) || [text];
  let kept = sentences[0];
  for (const next of sentences.slice(1)) {
    if ((kept + next).length > most) break;
    kept += next;
  }
  return kept.trim();
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
  const help = document.getElementById("phase-help");
  // what a phase of choices does (knocking's piles, an auction); in trick play the cards say it themselves
  const choosing = view.phase_help && view.moves.decisions.length && !view.moves.cards.length;
  help.textContent = choosing ? shortened(view.phase_help, 320) : "";
  const decisions = document.getElementById("decisions");
  decisions.replaceChildren();
  for (const d of view.moves.decisions) {
    const button = el("button", d.label, "decision");
    button.title = `you ${d.words}`;
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
  talk.replaceChildren(...view.talk.filter(line => line.trim()).map(line => el("li", named(view, line.trim()))));
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
  head.append(el("th", "deal"), el("th", "contract"), el("th", "items"),
              ...seats.map(s => { const th = el("th", nameOf(view, s)); th.title = s; return th; }));
  table.append(head);
  for (const deal of view.deals) {
    const row = el("tr");
    const side = deal.contract && deal.contract.side.length ?
      ` (${deal.contract.side.map(s => nameOf(view, s)).join(", ")})` : "";
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
  box.append(el("h2", `Match over: ${view.result.headline}`));
  const standings = el("table", null, "standings");
  standings.append(el("caption", "Final standings"));
  const head = el("tr");
  head.append(el("th", "place"), el("th", "player"), el("th", "score"));
  standings.append(head);
  for (const row of view.result.standings) {
    const line = el("tr", null, row.winner ? "winner" : "");
    const who = row.name === row.seat ? row.seat : `${row.name} (${row.seat})`;
    line.append(el("td", String(row.place)), el("td", who + (row.winner ? " — winner" : "")), el("td", String(row.score)));
    standings.append(line);
  }
  box.append(standings);
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
  if (view.failure) refused("A rule of this game failed, so the table stopped.", view.failure);
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
