// "Play now": joins the matchmaking queue over the page's user socket (js/user.js) and
// shows its state. The server is the only judge: this page only displays what the socket
// says, asks for the status every 2 s (which also proves the page is still open) and
// follows the redirect to the new game. Closing the page closes the socket, which leaves
// the queue. After a few seconds of waiting it offers a game against the computer
// meanwhile, keeping the player's place or not (their choice, lobby.services.queue_hold).
// The words come from the JavaScript catalogue (static/jsi18n/, loaded before this module).
import { listen, socket } from "../js/user.js";
import { showSocketClosed } from "./closed.js";
import { PollOrder } from "./polls.js";

const root = document.getElementById("play-now");
const el = (role) => root.querySelector(`[data-role="${role}"]`);
const STATUS_EVERY_MS = 2000;
const MEANWHILE_AFTER_S = 8; // waited this long: a game against the computer is offered
let wanted = false; // the player asked to be in the queue
let status = null;
let statusAt = 0;
let poller = null;
let redraw = null;
let databaseAway = false; // the server said it cannot reach its database
let leaving = null; // the id of this page's leave request, until it is answered
// Status polls are numbered: an answer read before a change pushed since is dropped.
const polls = new PollOrder();

function poll() {
  socket.sendRaw({ type: "queue", do: "status", id: polls.next() });
}

function show(message) {
  el("message").textContent = message;
}

function render() {
  const waiting = Boolean(status && status.in_queue);
  root.dataset.state = waiting ? "waiting" : wanted ? "joining" : "idle";
  el("facts").hidden = !waiting;
  el("join").hidden = wanted;
  el("leave").hidden = !wanted;
  el("held").hidden = !(status && status.held) || wanted;
  const waited = waiting ? status.wait_seconds + (Date.now() - statusAt) / 1000 : 0;
  // Nobody yet after a while: the computer meanwhile (shown until they stop waiting).
  if (waited >= MEANWHILE_AFTER_S) el("meanwhile").hidden = false;
  else if (!wanted) el("meanwhile").hidden = true;
  if (!waiting) return;
  el("waiting").textContent = String(status.waiting);
  el("wait").textContent = String(Math.floor(waited));
  el("range").textContent = `${status.rating - status.range} – ${status.rating + status.range} (±${status.range})`;
}

// A pairing arrives twice (the pushed redirect and the answer to the join or a status
// poll): the page opens the game once, or the second navigation would abort the first.
let opening = false;

function openGame(url) {
  if (opening) return;
  opening = true;
  window.clearInterval(poller);
  show(gettext("Opponent found! Opening your game…"));
  window.location.assign(url);
}

function onMessage(data) {
  if (data.type === "redirect" && data.url) {
    openGame(data.url);
  } else if (data.type === "queue") {
    if (data.url && wanted) {
      openGame(data.url);
      return;
    }
    if (polls.stale(data)) return;
    if (data.change) polls.changed();
    // `change`: the player's own doing, on this page or another (every "Play now" page of
    // theirs shows the same queue). Left: stop waiting here too. Joined: wait here too.
    if (data.change === "left") {
      wanted = false;
      show(gettext("You left the queue."));
    } else if (data.change === "joined") {
      wanted = true;
    } else if (leaving && data.in_queue) {
      return; // the answer to a poll sent before this page's own leave
    } else if (data.in_queue && !data.change) {
      wanted = true; // in the queue already (another page put them there): say so
    }
    status = data;
    statusAt = Date.now();
    if (data.in_queue) show(gettext("Waiting for an opponent…"));
    // Dropped meanwhile (a page of theirs closed, or the queue lost track of this one):
    // this page still waits, so it joins again.
    else if (wanted) socket.request({ type: "queue", do: "join" });
    render();
  } else if (data.type === "service") {
    databaseAway = data.database === false;
    if (databaseAway) show(data.message || gettext("Something went wrong."));
    else if (wanted) show(gettext("Waiting for an opponent…"));
  } else if (data.type === "error" && data.code === "leaver_wait") {
    // A leaver's wait (fair play): the message says how long and why; nothing to retry.
    wanted = false;
    show(data.message);
    render();
  } else if (data.type === "error") {
    // The game page's text for `unavailable` speaks of a move; here a poll or a join is
    // what is tried again. While the server has said why, that stays on the page.
    // A marked account may not wait at all: the page stops asking (fairplay's mark).
    if (data.code === "account_marked") wanted = false;
    if (data.code !== "unavailable") show(data.message || gettext("Something went wrong."));
    else if (!databaseAway) show(gettext("The server is unavailable: trying again…"));
  }
}

// Join and leave are requests (answered by id, sent again after a refusal for now or a
// reconnect); the status polls are not: the next one replaces a lost one.
const handlers = {
  onMessage,
  onReply: (msg) => {
    if (msg.id === leaving) leaving = null;
    onMessage(msg);
  },
  onRetry: (msg) => onMessage(msg),
  onOpen: () => {
    if (wanted) socket.request({ type: "queue", do: "join" });
    else poll();
  },
  onStatus: (state, info = {}) => {
    if (state !== "closed") return;
    status = null;
    if (info.final) {
      wanted = false;
      window.clearInterval(poller);
      window.clearInterval(redraw);
      showSocketClosed(el("message"), info.code, root.dataset.loginUrl);
      el("join").hidden = true;
      el("leave").hidden = true;
      return;
    }
    render();
    if (wanted) show(gettext("Connection lost, reconnecting…"));
  },
};

if (root && socket) {
  listen(handlers, { followsRedirects: true });
  // Playing the computer meanwhile: the form says what becomes of the place in the queue
  // (the server holds or leaves it with the game), so this page must not leave it.
  el("meanwhile").addEventListener("submit", () => {
    wanted = false;
    window.clearInterval(poller);
  });
  el("join").addEventListener("click", () => {
    wanted = true;
    show(gettext("Joining the queue…"));
    socket.request({ type: "queue", do: "join" });
    render();
  });
  el("leave").addEventListener("click", () => {
    wanted = false;
    status = null;
    leaving = socket.request({ type: "queue", do: "leave" });
    show(gettext("You left the queue."));
    render();
  });

  poller = window.setInterval(() => {
    if (wanted) poll();
  }, STATUS_EVERY_MS);
  redraw = window.setInterval(render, 1000);
  window.addEventListener("pagehide", () => {
    window.clearInterval(poller);
    // Closing, not choosing to leave: another "Play now" page of theirs keeps waiting.
    if (wanted) socket.sendRaw({ type: "queue", do: "leave", closing: true });
  });
  render();
}
