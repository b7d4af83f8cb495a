// The lobby's live list: re-rendered from every {"type": "challenges"} push of /ws/lobby/,
// and {"type": "redirect"} sends the player to a game that was just created for them.
// Without JavaScript the page still works: its forms are plain POSTs. The words come from
// Django's JavaScript catalogue (/jsi18n/, loaded before this module).
import { Socket, socketUrl } from "../games/socket.js";
import { showSocketClosed } from "./closed.js";

const list = document.getElementById("challenge-list");
const csrfInput = document.querySelector("input[name=csrfmiddlewaretoken]");
const csrf = csrfInput ? csrfInput.value : "";
const fill = (text, values) => interpolate(text, values, true);

function urlFor(kind, id) {
  // data-*-url holds the URL for challenge 0; swap in the real id.
  return list.dataset[kind + "Url"].replace("/0/", "/" + encodeURIComponent(id) + "/");
}

function form(kind, id, label, primary) {
  const f = document.createElement("form");
  f.className = "inline-form";
  f.method = "post";
  f.action = urlFor(kind, id);
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrf;
  const button = document.createElement("button");
  button.type = "submit";
  button.className = primary ? "button button--primary" : "button button--ghost";
  button.textContent = label;
  f.append(token, button);
  return f;
}

function row(c) {
  const li = document.createElement("li");
  li.className = "challenge card";
  li.dataset.challengeId = c.id;
  const who = document.createElement("span");
  who.className = "challenge__who";
  if (c.mine) {
    who.textContent = c.opponent
      ? fill(gettext("You challenged %(opponent)s"), c)
      : gettext("Your open challenge");
  } else if (c.to_me) {
    who.textContent = fill(gettext("%(challenger)s challenges you"), c);
  } else {
    who.textContent = fill(gettext("Open challenge from %(challenger)s"), c);
  }
  li.append(who);
  if (c.mine) {
    li.append(form("cancel", c.id, gettext("Cancel"), false));
  } else {
    li.append(form("accept", c.id, gettext("Accept"), true));
    if (c.to_me) li.append(form("decline", c.id, gettext("Decline"), false));
  }
  return li;
}

function render(challenges) {
  // textContent everywhere: usernames are data, never markup.
  list.replaceChildren(...challenges.map(row));
  if (!challenges.length) {
    const empty = document.createElement("li");
    empty.className = "muted challenge-list__empty";
    empty.textContent = gettext("No open challenges.");
    list.append(empty);
  }
}

// One navigation per game: the player who accepts is already on the way there through the
// form's redirect, so the socket's redirect (sent to both players) must not start a second
// navigation that aborts the first.
let leaving = false;
document.addEventListener("submit", () => {
  leaving = true;
});
window.addEventListener("pageshow", () => {
  leaving = false; // back from the bfcache: the page is live again
});

function goTo(url) {
  if (leaving) return;
  leaving = true;
  window.location.assign(url);
}

if (list) {
  const socket = new Socket(socketUrl(list.dataset.wsPath), {
    onMessage: (message) => {
      if (message.type === "challenges") render(message.challenges);
      else if (message.type === "redirect") goTo(message.url);
    },
    onStatus: (status, info = {}) => {
      if (!info.final) return;
      const note = document.createElement("p");
      note.className = "message message--warning";
      note.dataset.role = "socket-closed";
      showSocketClosed(note, info.code, list.dataset.loginUrl);
      list.before(note);
    },
  });
  socket.connect();
}
