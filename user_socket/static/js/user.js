// The user socket: one connection per page of a signed-in player (/ws/user/), opened here
// by the site header on every page, a seat's game page included (to hear what comes after
// the game: games/game/next.js). It keeps the header's "your
// game" current (its clock counted down between the server's numbers), and shows what
// concerns the player wherever they are: a challenge addressed to them, a rematch offered,
// a new game to go to, an arena of theirs that started. The lobby's pages listen to this
// same socket (listen) rather than open their own. Its words come rendered by the server
// (#user-words), not the catalogue.
import { Socket, socketUrl } from "../realtime/socket.js";

const config = document.getElementById("user-socket");
const words = config ? JSON.parse(document.getElementById("user-words").textContent) : {};
const csrf = () => document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
const fill = (text, name) => text.replace("%(name)s", name);
const listeners = [];
let pageFollowsRedirects = false;

/** A page script's handlers for this socket (Socket's: onMessage, onReply, onRetry,
 * onOpen, onStatus); `followsRedirects`: the page goes to a new game by itself. */
export function listen(handlers, { followsRedirects = false } = {}) {
  listeners.push(handlers);
  if (followsRedirects) pageFollowsRedirects = true;
}

const tell = (name, ...args) => {
  for (const handlers of listeners) handlers[name]?.(...args);
};

// ------------------------------------------------------------------ your game

let game = null; // the last `your_game`, with `at`: when it arrived here
let gameId = undefined; // undefined until the server first said

/** Seconds left on the player's clock: the bank, running down once the delay is over. */
function secondsLeft(g) {
  if (g.flag_at === null) return g.bank;
  const serverNow = g.server_time + (Date.now() - g.at);
  return Math.max(0, Math.min(g.bank, (g.flag_at - serverNow) / 1000));
}

function clockText(seconds) {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawClocks() {
  for (const el of document.querySelectorAll("[data-your-game]")) {
    const clock = el.querySelector("[data-slot=clock]");
    if (game && clock) clock.textContent = clockText(secondsLeft(game));
  }
}

function drawGame() {
  for (const el of document.querySelectorAll("[data-your-game]")) {
    el.hidden = !game;
    if (!game) continue;
    el.href = game.url;
    el.dataset.turn = game.your_turn ? "you" : game.their_turn ? "them" : "none";
    const name = game.bot ? words[`bot_${game.bot}`] : game.opponent;
    el.querySelector("[data-slot=opponent]").textContent = fill(words.vs, name);
    el.querySelector("[data-slot=turn]").textContent = game.your_turn
      ? words.your_turn
      : game.their_turn
        ? words.their_turn
        : words.waiting;
  }
  drawClocks();
}

function gameTold(told) {
  document.body.dataset.userSocket = "ready"; // the player's news are here (tests wait on it)
  const isNew = told && gameId !== undefined && told.id !== gameId;
  if (told) told = { ...told, url: withId(config.dataset.gameUrl, told.id), at: Date.now() };
  game = told;
  gameId = told ? told.id : null;
  drawGame();
  if (!told || told.status !== "waiting") {
    // Started or over: "go to your game" has been said, or is moot.
    for (const note of document.querySelectorAll("[data-notice^='game-']")) note.remove();
  }
  // A game made for them elsewhere (a challenge accepted, a pairing, a rematch agreed).
  if (isNew && told.status === "waiting" && !pageFollowsRedirects && !onGamePage(told.url)) {
    const name = told.bot ? words[`bot_${told.bot}`] : told.opponent;
    notify(`game-${told.id}`, fill(words.ready, name), [link(told.url, words.go, true)]);
  }
}

const onGamePage = (url) => window.location.pathname === url;

/** The server-drawn "your game", until the socket speaks: its clock ticks at once. */
function gameFromPage() {
  const el = document.querySelector("[data-your-game]:not([hidden])");
  if (!el || !el.dataset.serverTime) return;
  game = {
    bank: Number(el.dataset.bank),
    flag_at: el.dataset.flagAt ? Number(el.dataset.flagAt) : null,
    server_time: Number(el.dataset.serverTime),
    at: Date.now(),
  };
  drawClocks();
}

// ------------------------------------------------------------------ notices

let box = null;

function notify(key, text, actions) {
  document.querySelector(`[data-notice="${key}"]`)?.remove();
  if (!box) {
    box = document.createElement("div");
    box.className = "notices";
    box.setAttribute("aria-live", "polite");
    document.body.append(box);
  }
  const note = document.createElement("div");
  note.className = "notice";
  note.dataset.notice = key;
  note.dataset.shownAt = String(Date.now()); // when it reached this page (the tests read it)
  const text_ = document.createElement("p");
  text_.className = "notice__text";
  text_.textContent = text; // names are data, never markup
  const close = document.createElement("button");
  close.type = "button";
  close.className = "notice__close";
  close.setAttribute("aria-label", words.close);
  close.textContent = "×";
  close.addEventListener("click", () => note.remove());
  const row = document.createElement("div");
  row.className = "notice__actions";
  row.append(...actions);
  note.append(close, text_, row);
  box.append(note);
  return note;
}

const dropNotice = (key) => document.querySelector(`[data-notice="${key}"]`)?.remove();

function link(url, label, primary) {
  const a = document.createElement("a");
  a.className = primary ? "button button--primary" : "button button--ghost";
  a.href = url;
  a.textContent = label;
  return a;
}

/** A POST form (CSRF token and all); `quietly`: sent without leaving the page. */
function postButton(url, label, { primary = false, fields = {}, quietly = false } = {}) {
  const form = document.createElement("form");
  form.className = "inline-form";
  form.method = "post";
  form.action = url;
  for (const [name, value] of Object.entries({ csrfmiddlewaretoken: csrf(), ...fields })) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  const button = document.createElement("button");
  button.type = "submit";
  button.className = primary ? "button button--primary" : "button button--ghost";
  button.textContent = label;
  form.append(button);
  if (quietly) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const body = new FormData(form);
      fetch(url, { method: "POST", body, credentials: "same-origin", redirect: "manual" })
        .then(() => form.closest(".notice")?.remove())
        .catch(() => form.submit());
    });
  }
  return form;
}

const withId = (url, id) => url.replace("/0/", `/${encodeURIComponent(id)}/`);

/** The challenges addressed to the player: one notice each, gone when the challenge is. */
function invitations(challenges) {
  // The lobby lists them with the same buttons already.
  if (document.getElementById("challenge-list")) return;
  const open = new Set(challenges.map((c) => `challenge-${c.id}`));
  for (const note of document.querySelectorAll("[data-notice^='challenge-']")) {
    if (!open.has(note.dataset.notice)) note.remove();
  }
  for (const c of challenges) {
    const key = `challenge-${c.id}`;
    if (document.querySelector(`[data-notice="${key}"]`)) continue;
    notify(key, fill(words.challenge, c.challenger), [
      postButton(withId(config.dataset.acceptUrl, c.id), words.accept, { primary: true }),
      postButton(withId(config.dataset.declineUrl, c.id), words.decline, { quietly: true }),
    ]);
  }
}

function rematchOffer(message) {
  const key = `rematch-${message.game}`;
  if (message.by === null || onGamePage(message.url)) {
    dropNotice(key);
    return;
  }
  const url = withId(config.dataset.rematchUrl, message.game);
  notify(key, fill(words.rematch, message.by), [
    postButton(url, words.accept, { primary: true, fields: { answer: "offer" } }),
    link(message.url, words.see, false),
  ]);
}

/** An arena the player joined has started: to its page, where the standings are. */
function arenaStarted(message) {
  if (window.location.pathname === message.url) return; // its page says so itself
  notify(`arena-${message.arena}`, fill(words.arena, message.name), [
    link(message.url, words.open, true),
  ]);
}

// ------------------------------------------------------------------ the socket

function onMessage(message) {
  if (message.type === "your_game") gameTold(message.game);
  else if (message.type === "invitations") invitations(message.challenges);
  else if (message.type === "rematch_offer") rematchOffer(message);
  else if (message.type === "arena_started") arenaStarted(message);
  tell("onMessage", message);
}

export const socket = config
  ? new Socket(socketUrl(config.dataset.wsPath), {
      onMessage,
      onReply: (message, request) => tell("onReply", message, request),
      onRetry: (message, request) => tell("onRetry", message, request),
      onOpen: () => tell("onOpen"),
      onStatus: (status, info) => tell("onStatus", status, info),
    })
  : null;

if (socket) {
  gameFromPage();
  window.setInterval(() => {
    if (game && game.flag_at !== null) drawClocks();
  }, 1000);
  // Once every module of the page has run: their listeners hear the first message.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => socket.connect());
  } else {
    socket.connect();
  }
}
