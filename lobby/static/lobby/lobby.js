// The lobby's pages (the lobby, the live games), on the page's user socket (js/user.js,
// which asks for these lists on these pages): the challenge list re-rendered from every
// {"type": "challenges"} push, the games in progress from every {"type": "live_games"} push
// (a game created, started or over), and {"type": "redirect"} sends the player to a game
// that was just created for them. Without JavaScript the pages
// still work: the forms are plain POSTs and the lists are as served. The words come from
// the JavaScript catalogue of the page's language (static/jsi18n/, loaded before this module).
import { listen } from "../js/user.js";
import { showSocketClosed } from "./closed.js";

const list = document.getElementById("challenge-list");
const liveList = document.getElementById("live-games");
const config = document.querySelector("[data-login-url]");
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

function liveRow(game) {
  const li = document.createElement("li");
  li.className = "live-game card";
  const link = document.createElement("a");
  link.className = "live-game__link";
  link.href = game.url;
  const players = document.createElement("span");
  players.className = "live-game__players";
  // No ratings for a same-device game (one account) or a game against the computer.
  players.textContent = game.ratings
    ? fill(gettext("%(a)s (%(ra)s) vs %(b)s (%(rb)s)"), {
        a: game.players[0],
        ra: game.ratings[0],
        b: game.players[1],
        rb: game.ratings[1],
      })
    : fill(gettext("%(a)s vs %(b)s"), { a: game.players[0], b: game.players[1] });
  const facts = document.createElement("span");
  facts.className = "live-game__facts muted";
  facts.textContent = game.playing
    ? fill(gettext("Round %(round)s · balances %(a)s–%(b)s"), {
        round: game.round,
        a: game.balances[0],
        b: game.balances[1],
      })
    : gettext("Waiting for both players to start");
  if (game.same_device) facts.textContent += ` · ${gettext("same device")}`;
  const action = document.createElement("span");
  action.className = "live-game__action";
  action.textContent = game.mine ? gettext("Your game") : gettext("Watch");
  link.append(players, facts, action);
  li.append(link);
  return li;
}

function renderLive(games) {
  const limit = Number(liveList.dataset.limit) || games.length;
  liveList.replaceChildren(...games.slice(0, limit).map(liveRow));
  if (!games.length) {
    const empty = document.createElement("li");
    empty.className = "muted live-games__empty";
    empty.textContent = gettext("No game is being played right now.");
    liveList.append(empty);
  }
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

/** A note above the list ("info" or "warning"), read out as a status. */
function noteAbove(kind) {
  const note = document.createElement("p");
  note.className = `message message--${kind}`;
  note.setAttribute("role", "status");
  (list || liveList).before(note);
  return note;
}

/** Somebody declined this player's challenge: said once, above the list. */
function showDeclined(by) {
  noteAbove("info").textContent = fill(gettext("%(username)s declined your challenge."), {
    username: by,
  });
}

/** The database is away (`{"type": "service", "database": false}`): said above the list
 * until it is back. */
let serviceNote = null;
function showService(message) {
  if (message.database === false) {
    if (!serviceNote) {
      serviceNote = noteAbove("warning");
      serviceNote.dataset.role = "service";
    }
    serviceNote.textContent = message.message || "";
  } else if (serviceNote) {
    serviceNote.remove();
    serviceNote = null;
  }
}

function goTo(url) {
  if (leaving) return;
  leaving = true;
  window.location.assign(url);
}

if (config) {
  listen(
    {
      onMessage: (message) => {
        if (message.type === "challenges" && list) render(message.challenges);
        else if (message.type === "live_games" && liveList) renderLive(message.games);
        else if (message.type === "redirect") goTo(message.url);
        else if (message.type === "declined" && typeof message.by === "string") showDeclined(message.by);
        else if (message.type === "service") showService(message);
      },
      onStatus: (status, info = {}) => {
        if (!info.final) return;
        const note = noteAbove("warning");
        note.dataset.role = "socket-closed";
        showSocketClosed(note, info.code, config.dataset.loginUrl); // an alert, not a status
      },
    },
    { followsRedirects: true },
  );
}
