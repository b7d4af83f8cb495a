// The arena page: the standings re-drawn from every {"type": "standings"} push of
// /ws/arenas/<id>/, the countdown, and the player taken to their game once paired: by the
// user socket's {"type": "redirect"} (js/user.js), or by the standings if that was missed.
import { listen } from "../js/user.js";
import { Socket, socketUrl } from "../realtime/socket.js";

const fill = (text, values) => interpolate(text, values, true);
const root = document.querySelector(".arena[data-arena]");
const rows = root && root.querySelector("[data-role=rows]");
const countdown = root && root.querySelector("[data-role=countdown]");
const playing = root && root.querySelector("[data-role=playing]");
const gamesList = root && root.querySelector("[data-role=games]");
const me = root ? root.dataset.me : undefined;
// Links built from the server's own URLs, with a placeholder swapped for the real value.
const profileUrl = (name) => root.dataset.profileUrl.replace("__name__", encodeURIComponent(name));
const gameUrl = (id) => root.dataset.gameUrl.replace(/0\/$/, `${id}/`);

const FIRST_WAVE_WAIT_MS = 5000;

let clock = { status: countdown ? countdown.dataset.status : "", startsAt: 0, endsAt: 0 };

function setClock(status, startsIn, endsIn) {
  const now = Date.now();
  clock = { status, startsAt: now + startsIn * 1000, endsAt: now + endsIn * 1000 };
  tick();
}

function mmss(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

function tick() {
  if (!countdown) return;
  const now = Date.now();
  if (clock.status === "scheduled") {
    countdown.textContent = fill(gettext("starts in %(time)s"), { time: mmss(clock.startsAt - now) });
  } else if (clock.status === "running") {
    countdown.textContent = fill(gettext("%(time)s left"), { time: mmss(clock.endsAt - now) });
  } else {
    countdown.textContent = "";
  }
}

function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

function link(href, text, className) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (className) a.className = className;
  return a;
}

function row(standing) {
  const tr = document.createElement("tr");
  if (standing.user === me) {
    tr.className = "standings__me";
    tr.setAttribute("aria-current", "true");
  }
  tr.append(cell(String(standing.rank)));
  const player = cell("", "standings__player");
  player.append(link(profileUrl(standing.user), standing.user));
  if (standing.fire) {
    const fire = document.createElement("span");
    fire.className = "standings__fire";
    fire.title = gettext("on a streak");
    fire.textContent = "×2";
    player.append(" ", fire);
  }
  if (standing.state === "paused") {
    const paused = document.createElement("span");
    paused.className = "muted";
    paused.textContent = ` (${gettext("paused")})`;
    player.append(paused);
  }
  if (standing.game) {
    player.append(" ", link(gameUrl(standing.game), gettext("watch"), "standings__watch"));
  }
  tr.append(player);
  const score = cell("");
  const strong = document.createElement("strong");
  strong.textContent = String(standing.score);
  score.append(strong);
  const record = cell(`${standing.wins}–${standing.losses}`, "standings__wl");
  if (standing.short) {
    const short = document.createElement("span");
    short.className = "standings__short muted";
    short.title = gettext("games too short to count");
    short.textContent = fill(ngettext("+%(games)s too short", "+%(games)s too short", standing.short), {
      games: standing.short,
    });
    record.append(" ", short);
  }
  tr.append(score, record);
  tr.append(cell(standing.performance === null ? "–" : String(standing.performance), "standings__perf"));
  return tr;
}

// One ended game: who beat whom, and what the winner scored, or that it was too short.
function gameItem(played) {
  const li = document.createElement("li");
  li.className = played.short ? "arena__game arena__game--short" : "arena__game";
  const [first, second] = played.players;
  let text;
  if (played.winner === null) {
    text = fill(gettext("%(first)s – %(second)s: no result"), { first, second });
  } else {
    const winner = played.players[played.winner];
    const loser = played.players[1 - played.winner];
    text = fill(gettext("%(winner)s beat %(loser)s"), { winner, loser });
  }
  const note = document.createElement("span");
  note.className = "muted";
  if (played.short) note.textContent = gettext("too short: counts nothing");
  else if (played.winner !== null) note.textContent = `+${played.points[played.winner]}`;
  li.append(link(gameUrl(played.game), text), " ", note);
  return li;
}

function renderGames(games) {
  if (!gamesList) return;
  if (!games.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = gettext("No game has ended yet.");
    gamesList.replaceChildren(empty);
    return;
  }
  gamesList.replaceChildren(...games.map(gameItem));
}

let goingToGame = false;
let reloading = false;

function goToGame(url) {
  if (goingToGame) return;
  goingToGame = true;
  window.location.assign(url);
}

// A reload started before a pairing's redirect would abort the way to the game.
function reloadUnlessPaired(delay) {
  if (reloading) return;
  reloading = true;
  window.setTimeout(() => goingToGame || window.location.reload(), delay);
}

function render(message) {
  if (goingToGame) return;
  setClock(message.status, message.starts_in, message.ends_in);
  const mine = message.rows.find((standing) => standing.user === me);
  const pairable = mine && mine.state === "active" && message.status === "running";
  if (pairable && mine.game) {
    goToGame(gameUrl(mine.game));
    return;
  }
  // Over, its last games now over too: the podium (drawn by the server) replaces the wait.
  const finishing = root.querySelector("[data-role=finishing]");
  if (message.status !== countdown.dataset.status || (finishing && message.playing === 0)) {
    // Started, finished or cancelled since served: new buttons. A player just starting
    // waits for the first wave's pairing instead.
    reloadUnlessPaired(pairable ? FIRST_WAVE_WAIT_MS : 0);
    return;
  }
  const ranked = message.rows.map(row);
  rows.replaceChildren(...ranked);
  if (!ranked.length) {
    const empty = document.createElement("tr");
    empty.append(cell(gettext("Nobody has joined yet.")));
    empty.firstChild.colSpan = 5;
    rows.append(empty);
  }
  renderGames(message.games);
  playing.textContent = fill(
    ngettext("%(games)s game in progress", "%(games)s games in progress", message.playing),
    { games: message.playing },
  );
}

if (root && me) {
  listen(
    {
      onMessage: (message) => {
        if (message.type === "redirect" && message.url) goToGame(message.url);
      },
    },
    { followsRedirects: true },
  );
}

if (root && root.dataset.wsPath) {
  const socket = new Socket(socketUrl(root.dataset.wsPath), {
    onMessage: (message) => {
      if (message.type === "standings") render(message);
    },
  });
  socket.connect();
}
if (countdown) {
  setClock(clock.status, Number(countdown.dataset.startsIn), Number(countdown.dataset.endsIn));
  window.setInterval(tick, 1000);
}
