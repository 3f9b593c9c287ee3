"use strict";
// The lobby: list the games, upload a rule file, create a table and hand out the seat links.
// Every text from the server is set with textContent, never parsed as HTML.

const AGENT_TITLES = {person: "a person", random: "random bot", heuristic: "heuristic bot", search: "search bot"};
let games = [];
let agents = ["random", "heuristic", "search"];

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function gameByRef(ref) { return games.find(g => g.ref === ref); }

function ownerToken() {
  // This browser's secret for its uploads: they are shown to it alone until it publishes them.
  let token = localStorage.getItem("rulelang-owner");
  if (!token) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    token = Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("rulelang-owner", token);
  }
  return token;
}

function ownerHeaders() {
  return {"content-type": "application/json", "x-owner-token": ownerToken()};
}

async function loadGames(selected) {
  const reply = await fetch("/api/games", {headers: ownerHeaders()});
  const data = await reply.json();
  agents = data.agents;
  const uploaded = data.uploads.map(u => ({ref: u.ref, players: u.players, summary: "", uploaded: true,
    title: `${u.title} (${u.mine ? (u.published ? "your upload, published" : "your upload, only you see it") : "uploaded"})`}));
  games = data.games.concat(uploaded);
  const select = document.getElementById("game");
  select.replaceChildren();
  const list = document.getElementById("game-list");
  list.replaceChildren();
  for (const game of games) {
    const option = el("option", game.title || game.ref);
    option.value = game.ref;
    select.append(option);
    if (game.uploaded) continue;
    const item = el("li");
    item.append(el("strong", game.title || game.ref), el("span", ` ${game.players} players`, "players"));
    if (game.extends) item.append(el("span", ` variant of ${game.extends}`, "variant"));
    if (game.summary) item.append(el("p", game.summary, "summary"));
    item.dataset.ref = game.ref;
    list.append(item);
  }
  if (selected) select.value = selected;
  await showSeats();
}

async function showSeats() {
  const game = gameByRef(document.getElementById("game").value);
  const seats = document.getElementById("seats");
  seats.replaceChildren(el("legend", "Who sits where"));
  if (!game) return;
  document.getElementById("game-summary").textContent = game.summary || "";
  const count = game.players || 4;
  for (let s = 0; s < count; s++) {
    const label = el("label", `P${s + 1} `);
    const choice = el("select");
    choice.name = `seat${s}`;
    for (const kind of ["person"].concat(agents)) {
      const option = el("option", AGENT_TITLES[kind] || kind);
      option.value = kind;
      choice.append(option);
    }
    choice.value = s === 0 ? "person" : "heuristic";
    const name = el("input");
    name.name = `name${s}`;
    name.placeholder = "name";
    name.maxLength = 30;
    name.size = 10;
    label.append(choice, name);
    seats.append(label);
  }
}

async function createTable(event) {
  event.preventDefault();
  const error = document.getElementById("table-error");
  error.textContent = "";
  const seats = [...document.querySelectorAll("#seats select")].map(s => s.value);
  const deals = document.getElementById("deals").value;
  const names = [...document.querySelectorAll("#seats input")].map(n => n.value);
  const seed = document.getElementById("seed").value;
  const body = {game: document.getElementById("game").value, seats, names, deals: deals ? Number(deals) : null,
                seed: seed ? Number(seed) : null};
  const reply = await fetch("/api/tables", {method: "POST", headers: ownerHeaders(),
                                           body: JSON.stringify(body)});
  const data = await reply.json();
  if (!reply.ok) {
    error.textContent = data.error + (data.diagnostics ? "\n" + data.diagnostics.map(d => d.text).join("\n\n") : "");
    return;
  }
  const links = document.getElementById("links");
  links.replaceChildren();
  for (const seat of data.seats) {
    const item = el("li");
    item.append(el("strong", seat.seat + (seat.name ? ` (${seat.name})` : "") + " "));
    if (seat.link) {
      const url = new URL(seat.link, location.href).href;
      const link = el("a", url);
      link.href = url;
      link.className = "seat-link";
      link.dataset.seat = seat.seat;
      item.append(link);
    } else {
      item.append(el("span", AGENT_TITLES[seat.kind.split(":")[0]] || seat.kind));
    }
    links.append(item);
  }
  document.getElementById("created").hidden = false;
}

async function upload(event) {
  event.preventDefault();
  const file = document.getElementById("upload-file").files[0];
  const result = document.getElementById("upload-result");
  result.replaceChildren();
  if (!file) return;
  if (file.size > 1048576) {
    result.append(el("p", `${file.name} is larger than 1 MiB; rule files are limited to 1048576 bytes`, "error"));
    return;
  }
  const text = await file.text();
  const reply = await fetch("/api/rules", {method: "POST", headers: ownerHeaders(),
                                          body: JSON.stringify({name: file.name, text})});
  const data = await reply.json();
  if (data.error) {
    result.append(el("p", data.error, "error"));
    return;
  }
  result.append(el("p", data.ok ? `${data.title}: no errors; it is in your game list now (only you see it until you publish it)` :
                        `${file.name} has errors:`, data.ok ? "ok" : "error"));
  for (const d of data.diagnostics) {
    const where = d.line ? `line ${d.line}, column ${d.column}` : "";
    const box = el("div", null, "diagnostic " + d.severity);
    const text = el("pre", d.text);
    text.tabIndex = 0;                       // it scrolls sideways: reachable by keyboard
    box.append(el("p", `${d.severity} ${d.code} ${where}: ${d.message}`), text);
    if (d.hint) box.append(el("p", "hint: " + d.hint, "hint"));
    result.append(box);
  }
  if (data.ok) {
    result.append(publishButton(data.ref));
    await loadGames(data.ref);
  }
}

function publishButton(ref) {
  const button = el("button", "Publish it for everyone at this server");
  button.type = "button";
  button.id = "publish";
  button.addEventListener("click", async () => {
    const reply = await fetch("/api/rules/publish", {method: "POST", headers: ownerHeaders(), body: JSON.stringify({ref})});
    const data = await reply.json();
    button.replaceWith(el("p", reply.ok ? "Published: everyone at this server can choose it now." : data.error,
                          reply.ok ? "ok" : "error"));
    if (reply.ok) await loadGames(ref);
  });
  return button;
}

document.getElementById("game").addEventListener("change", showSeats);
document.getElementById("table-form").addEventListener("submit", createTable);
document.getElementById("upload-form").addEventListener("submit", upload);
loadGames();
