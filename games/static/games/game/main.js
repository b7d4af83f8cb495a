/**
 * The game page: wires the socket to the views. It decides nothing: every control it
 * offers is an action found in the view's `legal`, and what the server answers (state,
 * ack, error) is all it shows.
 *
 * Debugging and tests: `window.__game` exposes the socket, the current view and `send`;
 * `window.__interactiveAt` is the performance.now() at which the first state was drawn and
 * the hand became clickable.
 */
import { AuctionView } from "./auction.js";
import { BalanceView } from "./balances.js";
import { BoardView, tileText } from "./board.js";
import { ClockView } from "./clocks.js";
import { FeedView, endName, endPhrase, transfersOf } from "./feed.js";
import { HandView, playableTiles } from "./hand.js";
import { NextGame } from "./next.js";
import { GameSocket, localNow, socketUrl } from "./protocol.js";
import { PrivacyScreen } from "./sameDevice.js";
import { Sounds } from "./sounds.js";
import { SummaryView } from "./summary.js";

const fmt = (text, values) => interpolate(text, values, true);
const $ = (sel, root = document) => root.querySelector(sel);

const root = document.getElementById("game");
const names = JSON.parse($("#game-players")?.textContent || '["", ""]');
// The engine's request vocabulary ({do: [field, ...]}): requests carry those fields only.
const actionKeys = JSON.parse($("#game-action-keys")?.textContent || "{}");

/** Page state: the last view, and the few UI choices that are the page's own. */
const ui = {
  review: null, // the review's last pushed progress (games/review), once the game is over
  view: null,
  version: -1,
  selected: null, // a tile that fits several ends, waiting for the end
  drawLoop: false, // P4 "draw until playable"
  pendingSince: 0,
  ackedVersion: -1, // the version the last ack announced
  ackedAt: 0,
  lastTile: null,
  rendered: false,
  errors: [], // codes of the errors the server answered, newest last (debugging, tests)
};

// ---------------------------------------------------------------- seats (top: opponent)

/**
 * Which seat is drawn at the bottom: mine; seat 0 for a spectator; on a shared screen the
 * seat whose hand was revealed last (the view's `showing`, kept in ui.deviceBottom while
 * it is null), so that the tiles sit under their own player's bar.
 */
const bottomSeat = () => {
  const v = ui.view;
  if (!v || v.seat === null || v.seat === undefined) return 0;
  return v.same_device ? (ui.deviceBottom ?? 0) : v.seat;
};
const slotEl = (seat) => (seat === bottomSeat() ? $("#seat-bottom") : $("#seat-top"));

function seatParts(seat) {
  const box = slotEl(seat);
  if (!box) return null;
  return {
    box,
    name: $(".seat__name", box),
    rating: $(".seat__rating", box),
    presence: $(".seat__presence", box),
    chips: $(".chips", box),
    number: $(".balance__number", box),
    clock: $(".clock", box),
    delay: $(".clock__delay", box),
    bank: $(".clock__bank", box),
    tiles: $(".seat__tiles", box),
  };
}

// ---------------------------------------------------------------- views

const toasts = $("#toasts");
function toast(text, kind = "error") {
  const t = document.createElement("div");
  t.className = `toast toast--${kind}`;
  t.setAttribute("role", kind === "error" ? "alert" : "status");
  t.textContent = text;
  toasts.appendChild(t);
  setTimeout(() => t.classList.add("toast--leaving"), 3800);
  setTimeout(() => t.remove(), 4400);
}

// The server's own messages for this page (game.css floats them): gone like a toast.
const serverMessages = document.querySelector(".messages");
if (serverMessages) {
  setTimeout(() => serverMessages.classList.add("messages--leaving"), 5000);
  setTimeout(() => serverMessages.remove(), 5600);
}

const sounds = new Sounds($("#sound-toggle"));

// ---------------------------------------------------------------- connection banner

const banner = $("#reconnecting");

/** The banner with `text` and, optionally, a link; it replaces what was there. */
function showBanner(text, link = null) {
  clearTimeout(ui.bannerTimer);
  ui.bannerTimer = null;
  const nodes = [document.createTextNode(text)];
  if (link) {
    const a = document.createElement("a");
    a.href = link.href;
    a.textContent = link.text;
    nodes.push(document.createTextNode(" "), a);
  }
  banner.replaceChildren(...nodes);
  banner.hidden = false;
}

function hideBanner() {
  clearTimeout(ui.bannerTimer);
  ui.bannerTimer = null;
  if (!ui.refused) banner.hidden = true;
}

/** While the socket is not open a draw could not be sent: its buttons say so. */
function setOnline(online) {
  ui.online = online;
  for (const b of document.querySelectorAll("#draw-controls button")) b.disabled = !online;
}

/** Lost: say so (after a short grace, so a blip does not flash), naming a move in flight. */
function showLost(delay) {
  if (ui.bannerTimer || ui.refused) return; // already on its way (or nothing to retry)
  ui.bannerTimer = setTimeout(() => {
    showBanner(
      socket.pending.size
        ? gettext("Connection to the server lost — your last move is being retried.")
        : gettext("Connection lost: reconnecting…"),
    );
  }, delay);
}

/** The server will not take this socket (close code 4401, 4403 or 4404): say why. */
function showRefused(code) {
  ui.refused = true;
  ui.pendingSince = 0;
  if (code === 4401) {
    const next = encodeURIComponent(window.location.pathname);
    showBanner(gettext("You are signed out."), {
      href: `${root.dataset.loginUrl}?next=${next}`,
      text: gettext("Sign in again"),
    });
  } else if (code === 4404) {
    showBanner(gettext("This game does not exist."), {
      href: root.dataset.lobbyUrl,
      text: gettext("Back to the lobby"),
    });
  } else {
    showBanner(gettext("This page may not connect to the game server. Reload it to try again."));
  }
}

const socket = new GameSocket(socketUrl(root.dataset.wsPath), {
  onState: (msg) => onState(msg),
  onPresence: (msg) => {
    ui.watching = msg.watching;
    renderWatchers();
    renderPresence(msg.connected);
  },
  onRematch: (msg) => onRematch(msg),
  onReview: (msg) => {
    // Parts finish on several workers at once, so one push may overtake another: the
    // progress shown never goes back, and a finished review stays finished.
    const last = ui.review;
    if (last && msg.status === "running" && (last.status === "done" || msg.done < last.done)) return;
    ui.review = msg;
    if (ui.view) summary.update(ui.view, names);
  },
  onService: (msg) => {
    if (msg.database === false) showBanner(msg.message || gettext("Connection lost: reconnecting…"));
    else hideBanner();
  },
  onAck: (msg) => {
    ui.pendingSince = 0;
    if (msg.game) goToGame(msg.game); // a rematch both wanted
    // The ack may overtake the state it produced: until that state is here, the view
    // is stale, and nothing is chosen from it (see busy()).
    ui.ackedVersion = Math.max(ui.ackedVersion, msg.version ?? -1);
    ui.ackedAt = localNow();
    maybeContinueDrawing();
  },
  onError: (msg) => {
    hideBanner(); // answered: the server is reachable again
    ui.errors.push(msg.code);
    ui.pendingSince = 0;
    ui.drawLoop = false;
    sounds.play("error");
    toast(msg.message || msg.code);
  },
  onRetry: (msg) => {
    // The socket sends the same request again after a back-off; meanwhile the page stays
    // busy, so that the player does not send a second one.
    ui.errors.push(msg.code);
    ui.pendingSince = localNow();
    if (msg.code === "unavailable") showBanner(msg.message);
  },
  onStatus: (status, info = {}) => {
    setOnline(status === "open");
    if (info.final) showRefused(info.code);
    else if (status === "closed") showLost(600);
    else if (status === "connecting" && banner.hidden) showLost(1200);
    // "open": the banner stays until the state arrives (onState), which proves the
    // server can read the game again.
  },
}, { actionKeys });

/**
 * One request in flight at a time, and none chosen from a stale view: busy until the
 * request is answered and the state it produced has arrived (with timeouts, so that a
 * lost message never locks the page).
 */
function busy() {
  const now = localNow();
  if (ui.pendingSince && now - ui.pendingSince < 5000) return true;
  return ui.version < ui.ackedVersion && now - ui.ackedAt < 3000;
}

/** Send an action if the view allows it. */
function send(action) {
  if (busy()) return null;
  const id = socket.send(action);
  if (id === null) {
    toast(gettext("Not connected: reconnecting…"));
    return null;
  }
  ui.pendingSince = localNow();
  ui.selected = null;
  return id;
}

const board = new BoardView($("#board"), {
  onTarget: (end) => playSelected(end),
});

const hand = new HandView($("#hand"), {
  onActivate: (tile) => chooseTile(tile),
  onRefused: () => toast(gettext("That tile cannot be played now."), "info"),
  onDrop: (tile, x, y) => {
    const info = playableTiles(ui.view?.legal).get(tile);
    if (!info) return;
    const r = $("#board").getBoundingClientRect();
    const onTable = x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    if (!onTable) return;
    if (info.kind === "lead" || info.ends.length <= 1) {
      send(info.actions[0]);
    } else {
      const end = board.endAt(x, y) || board.nearestEnd(x, y, info.ends);
      if (end) send(info.actions.find((a) => a.end === end));
    }
  },
});

const clocks = new ClockView(
  (seat) => {
    const p = seatParts(seat);
    return p ? { box: p.clock, delay: p.delay, bank: p.bank } : null;
  },
  {
    serverNow: () => socket.serverNow(),
    localNow,
    onTick: () => socket.tick(),
    onFrame: (now) => summary.tick(now),
    onLowSecond: (seat) => {
      if (seat === ui.view?.seat) sounds.play("low");
    },
  },
);

const balances = new BalanceView((seat) => seatParts(seat), $("#fly-layer"));
const feed = new FeedView($("#feed"));
const auction = new AuctionView($("#auction"), { send });
const nextGame = new NextGame({
  gameId: Number(root.dataset.gameId),
  seat: root.dataset.audience !== "watch" && root.dataset.sameDevice !== "true",
  arenaUrl: root.dataset.arenaUrl,
  onChange: () => ui.view && summary.update(ui.view, names),
});
const summary = new SummaryView($("#overlay"), {
  next: nextGame,
  send,
  rematch: (answer) => {
    if (socket.rematch(answer) === null) toast(gettext("Not connected: reconnecting…"));
  },
  computerAgain: $("#computer-again-form"),
  newSameDeviceUrl: root.dataset.sameDeviceUrl,
  gameUrl: (id) => gameUrl(id),
  ratingLine: () => ui.ratingLine,
  review: () => ui.review,
  reviewUrl: root.dataset.reviewUrl,
  lobbyUrl: root.dataset.lobbyUrl,
});
const privacy = new PrivacyScreen($("#privacy"), { send });

// ---------------------------------------------------------------- choosing and playing

function chooseTile(tile) {
  const info = playableTiles(ui.view?.legal).get(tile);
  if (!info) return;
  if (info.kind === "lead" || info.ends.length <= 1) {
    send(info.actions[0]);
    return;
  }
  // Several ends: show them as targets; a second activation of the same tile cancels.
  ui.selected = ui.selected === tile ? null : tile;
  renderPlay();
  if (ui.selected) $("#end-choice button")?.focus();
}

function playSelected(end) {
  const info = playableTiles(ui.view?.legal).get(ui.selected);
  const action = info?.actions.find((a) => a.end === end);
  if (action && send(action) !== null) hand.focus(); // the end buttons go: stay in the hand
}

/** A touch screen with no keyboard (game.css hides the key hints there too). */
const touchOnly = () => window.matchMedia("(hover: none) and (pointer: coarse)").matches;

/** The keyboard to the next thing to do: a playable tile, else Draw, else the hand. */
function focusPlay() {
  if (hand.focusPlayable()) return;
  const drawButton = $("#draw-one");
  if (!$("#draw-controls").hidden) drawButton.focus();
  else hand.focus();
}

function draw(untilPlayable) {
  const action = ui.view?.legal?.find((a) => a.do === "draw");
  if (!action) return;
  ui.drawLoop = untilPlayable;
  send(action);
}

/** P4: the shortcut is the same draw requests in a row, one after each ack/state. */
function maybeContinueDrawing() {
  if (!ui.drawLoop || busy()) return;
  const legal = ui.view?.legal || [];
  const canDraw = legal.some((a) => a.do === "draw");
  const canPlay = legal.some((a) => a.do === "play");
  if (canDraw && !canPlay) send({ do: "draw" });
  else ui.drawLoop = false;
}

// ---------------------------------------------------------------- rendering

/** How many spectators' sockets are open, told by the server's `presence` (none: hidden). */
function renderWatchers() {
  const n = ui.watching || 0;
  const line = $("#watchers");
  line.hidden = n < 1;
  line.textContent = fmt(ngettext("%(n)s viewer", "%(n)s viewers", n), { n });
}

function renderPresence(connected) {
  if (!ui.view || !connected) return;
  ui.view.connected = connected;
  tellOpponentPresence(connected);
  [0, 1].forEach((seat) => {
    const p = seatParts(seat);
    if (!p) return;
    const on = !!connected[seat];
    p.presence.classList.toggle("seat__presence--on", on);
    p.presence.title = on ? gettext("Connected") : gettext("Disconnected");
    p.presence.setAttribute("aria-label", p.presence.title);
  });
}

/** A player is told in words when the opponent's connection drops or comes back: the dot
 * beside a name is easy to miss, and their clock runs on meanwhile. A drop shorter than
 * PRESENCE_GRACE_MS (a reload, the server's sockets re-registering after a Redis restart)
 * is not worth two messages: only the dot shows it. */
const PRESENCE_GRACE_MS = 2000;

function tellOpponentPresence(connected) {
  const view = ui.view;
  const mine = view.same_device ? null : view.seat;
  if (mine !== 0 && mine !== 1) return; // a spectator, or one device for both seats
  const other = 1 - mine;
  const was = ui.opponentConnected;
  ui.opponentConnected = !!connected[other];
  if (was === undefined || was === ui.opponentConnected) return;
  const p = names[other];
  const active = () => ["playing", "waiting"].includes(ui.view.status);
  if (!ui.opponentConnected) {
    clearTimeout(ui.opponentLostTimer);
    ui.opponentLostTimer = setTimeout(() => {
      ui.opponentLostTimer = null;
      if (ui.opponentConnected || !active()) return;
      ui.opponentLostTold = true;
      toast(fmt(gettext("%(p)s lost the connection; their clock keeps running."), { p }), "info");
    }, PRESENCE_GRACE_MS);
    return;
  }
  clearTimeout(ui.opponentLostTimer);
  ui.opponentLostTimer = null;
  if (!ui.opponentLostTold) return; // back within the grace: nothing was said
  ui.opponentLostTold = false;
  if (active()) toast(fmt(gettext("%(p)s is back."), { p }), "info");
}

// A computer player's name in the reader's language; the server sends its strength.
const COMPUTER_NAMES = {
  easy: () => gettext("Computer (easy)"),
  medium: () => gettext("Computer (medium)"),
  hard: () => gettext("Computer (hard)"),
};

// Its strength alone, shown after "Computer" in its bar (on a phone, on the bar's second line).
const COMPUTER_STRENGTHS = {
  easy: () => gettext("easy"),
  medium: () => gettext("medium"),
  hard: () => gettext("hard"),
};

function playerName(player) {
  return player.bot ? (COMPUTER_NAMES[player.bot]?.() ?? player.username) : player.username;
}

function renderSeats(view) {
  [0, 1].forEach((seat) => {
    const p = seatParts(seat);
    const player = view.players[seat];
    p.box.dataset.seat = String(seat);
    const strength = player.bot ? COMPUTER_STRENGTHS[player.bot]?.() : null;
    p.name.textContent = strength ? gettext("Computer") : names[seat];
    if (view.same_device || view.seat === null || view.seat === undefined) p.box.setAttribute("aria-label", names[seat]);
    // rating_label is "1534?" while the player is provisional (first 10 rated games). An
    // unrated game shows none: not the computer's, not a same-device game's (one account's
    // rating beside two people's names), not the player's in a game that cannot change it.
    const rating = view.rated && !player.bot ? player.rating_label || player.rating : "";
    p.rating.textContent = strength || rating ? `(${strength || rating})` : "";
    p.box.classList.toggle("seat--to-act", view.to_act === seat && view.status === "playing");
    p.box.classList.toggle("seat--jockey", view.jockey === seat);
    p.tiles.textContent = fmt(ngettext("%(n)s tile", "%(n)s tiles", player.hand_count), { n: player.hand_count });
  });
  renderPresence(view.connected);
}

function renderTableInfo(view) {
  const b = view.board || {};
  const count = $("#count");
  if (b.lead) {
    // "Count 15 → scores 15": the table's count and what the server says it scored (R4.5).
    count.textContent = b.scores
      ? fmt(gettext("Count %(n)s → scores %(p)s"), { n: b.count, p: b.scores })
      : fmt(gettext("Count %(n)s"), { n: b.count });
  } else {
    count.textContent = "";
  }
  $("#round").textContent = view.round ? fmt(gettext("Round %(n)s"), { n: view.round }) : "";
  $("#boneyard").textContent =
    view.round && view.status === "playing"
      ? fmt(gettext("Boneyard: %(n)s"), { n: view.boneyard_left })
      : "";
}

function promptText(view) {
  const me = view.seat;
  const other = view.to_act !== null && view.to_act !== undefined ? names[view.to_act] : "";
  const legal = view.legal || [];
  if (view.status === "waiting" && view.players.some((p) => p.bot)) return gettext("Starting the game…");
  if (view.status === "waiting") return gettext("Waiting for both players to press Start");
  if (view.status === "cancelled") return gettext("Game cancelled");
  if (view.status === "finished" || view.status === "aborted") return gettext("Game over");
  if (view.phase === "round_over") return gettext("Round over");
  if (view.same_device && view.awaiting_reveal) return fmt(gettext("Pass the device to %(p)s"), { p: other });
  const mine = me !== null && me !== undefined && view.to_act === me;
  if (!mine) {
    if (view.phase === "auction") return fmt(gettext("Auction: %(p)s is deciding"), { p: other });
    if (view.phase === "lead") return fmt(gettext("%(p)s leads"), { p: other });
    return fmt(gettext("%(p)s's turn"), { p: other });
  }
  // A shared screen is read by both players: it says whose turn it is by name.
  if (view.same_device) return sharedScreenPrompt(view, other);
  if (view.phase === "auction") return gettext("Auction: your decision");
  if (view.phase === "lead") return gettext("You lead: play any tile");
  if (ui.selected) return gettext("Choose an end for the tile");
  if (view.must_play) return fmt(gettext("Play the tile you drew: %(t)s"), { t: tileText(view.must_play) });
  if (legal.some((a) => a.do === "play")) return gettext("Your turn: play a tile");
  if (legal.some((a) => a.do === "draw")) return gettext("You cannot play: draw a tile");
  return gettext("Your turn");
}

function sharedScreenPrompt(view, p) {
  const legal = view.legal || [];
  if (view.phase === "auction") return fmt(gettext("%(p)s, your decision in the auction"), { p });
  if (view.phase === "lead") return fmt(gettext("%(p)s, you lead: play any tile"), { p });
  if (ui.selected) return gettext("Choose an end for the tile");
  if (view.must_play) return fmt(gettext("Play the tile you drew: %(t)s"), { t: tileText(view.must_play) });
  if (legal.some((a) => a.do === "play")) return fmt(gettext("%(p)s, your turn: play a tile"), { p });
  if (legal.some((a) => a.do === "draw")) return fmt(gettext("%(p)s, you cannot play: draw a tile"), { p });
  return fmt(gettext("%(p)s, your turn"), { p });
}

/** Hand, targets and the play controls (draw, end choice). */
function renderPlay() {
  const view = ui.view;
  const playable = playableTiles(view.legal);
  if (ui.selected && !playable.has(ui.selected)) ui.selected = null;
  hand.update(view.hand, playable, view.must_play, ui.selected);

  const info = ui.selected ? playable.get(ui.selected) : null;
  const preview = view.play_preview || {};
  const targets = info
    ? info.actions.map((a) => {
        // The server's preview of this placement: the count it leaves and what it scores.
        const p = preview[`${a.tile}:${a.end}`];
        const end = endPhrase(a.end);
        // "on the left", as the game log says it: one wording in both places.
        let label = fmt(gettext("Play %(end)s"), { end });
        if (p && p.points) {
          label = fmt(gettext("Play %(end)s: count %(n)s, scores %(p)s"), { end, n: p.count, p: p.points });
        } else if (p) {
          label = fmt(gettext("Play %(end)s: count %(n)s"), { end, n: p.count });
        }
        return { end: a.end, short: endName(a.end), label, points: p ? p.points : 0 };
      })
    : [];
  board.update(view.board, { targets, lastTile: ui.lastTile });

  const choice = $("#end-choice");
  choice.replaceChildren();
  choice.hidden = !info;
  if (info) {
    for (const t of targets) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button button--primary button--small";
      b.dataset.end = t.end;
      // One short row ("Top +10"), so that the table keeps its room; the whole sentence
      // (the count it leaves, what it scores) is the button's name and tooltip.
      b.textContent = t.points ? `${t.short} +${t.points}` : t.short;
      b.setAttribute("aria-label", t.label);
      b.title = t.label;
      b.addEventListener("click", () => playSelected(t.end));
      choice.appendChild(b);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button button--ghost button--small";
    cancel.textContent = gettext("Cancel");
    cancel.addEventListener("click", () => {
      ui.selected = null;
      renderPlay();
      hand.focus();
    });
    choice.appendChild(cancel);
  }

  const canDraw = (view.legal || []).some((a) => a.do === "draw");
  const drawControls = $("#draw-controls");
  const drawHadFocus = drawControls.contains(document.activeElement);
  drawControls.hidden = !canDraw;
  // The last draw hid the buttons it was pressed with: the keyboard goes on to the hand.
  if (drawHadFocus && !canDraw) focusPlay();
  $("#prompt-text").textContent = promptText(view);
}

function renderAll(view, events, log) {
  renderSeats(view);
  renderTableInfo(view);
  renderPlay();
  auction.update(view, names);
  nextGame.update(view);
  summary.update(view, names);
  privacy.update(view, names);
  $("#resign-open").hidden = !(view.legal || []).some((a) => a.do === "resign");
  root.dataset.phase = view.phase;
  root.dataset.status = view.status;
  root.classList.toggle("game--my-turn", view.seat !== null && view.to_act === view.seat);
  balances.update(
    view.players.map((p) => p.balance),
    ui.rendered && !ui.seatsMoved ? transfersOf(events) : [],
  );
  if (log) feed.reset(log, names);
  else feed.add(events, names);
}

/** The rating change of a finished rated game, from the ratings app, once per page. */
function loadRatingChange(view) {
  if (ui.ratingAsked || view.status !== "finished" || !view.rated || !root.dataset.ratingUrl) return;
  ui.ratingAsked = true;
  fetch(root.dataset.ratingUrl, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (!data?.seats) return;
      const parts = data.seats.map((s, seat) =>
        fmt(gettext("%(p)s %(after)s (%(delta)s)"), {
          p: names[seat],
          after: s.after,
          delta: s.delta > 0 ? `+${s.delta}` : String(s.delta).replace("-", "−"),
        }),
      );
      ui.ratingLine = fmt(gettext("Ratings: %(list)s"), { list: parts.join(", ") });
      const line = $("#rating-change");
      if (line) line.textContent = ui.ratingLine;
    })
    .catch(() => {}); // the card is complete without it
}

// While the computer is the one to act, ask for the state if no news came for long: its
// move, made by a worker, is pushed (Redis, or the embedded relay), so this only covers a
// push lost to a restarting web process.
const COMPUTER_POLL_MS = 10000;
let computerPoll = null;

function computerToAct(view) {
  if (!["waiting", "playing"].includes(view.status)) return false;
  return view.players.some((p, seat) => {
    if (!p.bot) return false;
    if (view.status === "waiting") return !p.started;
    if (view.phase === "round_over") return !p.continued;
    return view.to_act === seat;
  });
}

function watchComputer(view) {
  clearTimeout(computerPoll);
  computerPoll = computerToAct(view) ? setTimeout(() => socket.tick(), COMPUTER_POLL_MS) : null;
}

function onState(msg) {
  hideBanner();
  const previous = ui.view;
  const view = msg.game;
  const bottomBefore = bottomSeat();
  ui.view = view;
  // The server's `showing`: the seat whose hand was revealed last (null as a round starts).
  if (view.same_device && view.showing !== null && view.showing !== undefined) ui.deviceBottom = view.showing;
  // The bars swapped places: the balances are set at once, not flown between the slots.
  ui.seatsMoved = bottomSeat() !== bottomBefore;
  ui.version = msg.version;
  view.players.forEach((p, seat) => {
    if (p.bot) names[seat] = playerName(p);
    else if (p.name || p.username) names[seat] = p.name || p.username;
  });
  // The last placed tile is highlighted on the table.
  for (const ev of msg.events || []) {
    if (ev.type === "play" || ev.type === "lead") ui.lastTile = ev.tile;
    if (ev.type === "deal") ui.lastTile = null;
  }
  // A decision that newly became mine: a beep (if sounds are on).
  const mineNow = view.seat !== null && view.to_act === view.seat && !view.awaiting_reveal;
  const mineBefore = previous && previous.seat !== null && previous.to_act === previous.seat;
  if (mineNow && !mineBefore && ui.rendered) sounds.play("turn");

  // A connection's first state carries the whole log (a reload, a late spectator).
  renderAll(view, msg.events, msg.log);
  // For a practice game's hints (practice.js), which only word what the view says.
  root.dispatchEvent(new CustomEvent("game:state", { detail: { view } }));
  // A turn that newly became mine: the keyboard goes to the hand, unless it is busy elsewhere.
  // Not on a touch screen, where a focus ring on a tile nobody touched reads as a choice.
  const idle = !document.activeElement || document.activeElement === document.body;
  if (mineNow && !mineBefore && idle && !touchOnly() && ["play", "lead"].includes(view.phase)) focusPlay();
  loadRatingChange(view);
  clocks.update(view);
  watchComputer(view);
  if (!ui.rendered) {
    ui.rendered = true;
    root.classList.add("game--ready");
    // Navigation start -> first state drawn and hand clickable (performance.now() origin).
    window.__interactiveAt = performance.now();
    performance.mark?.("game-interactive");
  }
  maybeContinueDrawing();
}

// ---------------------------------------------------------------- page controls

/**
 * The "how to play" panel. On a phone it stops above my own seat, so that my running
 * clock stays in sight while I read (R8.3: reading does not pause it).
 */
function openRules() {
  const panel = $("#rules-panel");
  panel.hidden = false;
  const seat = $("#seat-bottom").getBoundingClientRect();
  const narrow = window.matchMedia("(max-width: 59.99rem)").matches;
  panel.style.bottom = narrow && seat.top > 200 ? `${Math.ceil(window.innerHeight - seat.top + 4)}px` : "";
  root.classList.add("game--rules-open");
  $("#rules-open").setAttribute("aria-expanded", "true");
  $("#rules-close").focus();
}

function closeRules() {
  $("#rules-panel").hidden = true;
  root.classList.remove("game--rules-open");
  $("#rules-open").setAttribute("aria-expanded", "false");
  $("#rules-open").focus();
}

$("#rules-open").addEventListener("click", () => ($("#rules-panel").hidden ? openRules() : closeRules()));
$("#rules-close").addEventListener("click", closeRules);
$("#draw-one").addEventListener("click", () => draw(false));
$("#draw-all").addEventListener("click", () => draw(true));

const dialog = $("#resign-dialog");
$("#resign-open").addEventListener("click", () => dialog.showModal());
$("#resign-cancel").addEventListener("click", () => dialog.close());
$("#resign-confirm").addEventListener("click", () => {
  dialog.close();
  const action = ui.view?.legal?.find((a) => a.do === "resign");
  if (action) send(action);
});

document.addEventListener("keydown", (e) => {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select, dialog")) return;
  const key = e.key.toLowerCase();
  if (key === "d") {
    e.preventDefault();
    draw(e.shiftKey);
  } else if (key === "h") {
    e.preventDefault();
    hand.focus();
  } else if (key === "?") {
    e.preventDefault();
    if ($("#rules-panel").hidden) openRules();
    else closeRules();
  } else if (key === "escape") {
    if (!$("#rules-panel").hidden) closeRules();
    else if (ui.selected) {
      ui.selected = null;
      renderPlay();
      hand.focus();
    }
  }
});

// Keep the game below the (sticky) site header exactly in the viewport. Measured into a
// variable of its own: the header's min-height reads --header-h, so writing that one let
// the header only ever grow (an open menu measured once stayed for good). An open menu lies
// over the page for a moment and is not measured; closing it is a resize of the header.
const siteHeader = document.querySelector(".site-header");
function fitToViewport() {
  if (siteHeader?.querySelector(".site-nav--open")) return;
  const h = siteHeader ? siteHeader.getBoundingClientRect().height : 0;
  document.documentElement.style.setProperty("--game-top", `${Math.ceil(h)}px`);
}
if (siteHeader) new ResizeObserver(fitToViewport).observe(siteHeader);
window.addEventListener("resize", fitToViewport);
fitToViewport();

const gameUrl = (id) => root.dataset.gameUrl.replace("/0/", `/${Number(id)}/`);

/** The rematch both players wanted: both are taken there. */
function goToGame(id) {
  if (ui.leaving) return;
  ui.leaving = true;
  window.location.assign(gameUrl(id));
}

function onRematch(msg) {
  if (!ui.view) return;
  ui.view.rematch = { offered_by: msg.offered_by, game: msg.game, declined_by: msg.declined_by };
  if (msg.game && ui.view.seat !== null && ui.view.seat !== undefined) goToGame(msg.game);
  summary.update(ui.view, names);
}

window.__game = {
  socket,
  send: (action) => socket.send(action),
  get view() {
    return ui.view;
  },
  get version() {
    return ui.version;
  },
  get errors() {
    return ui.errors;
  },
  serverNow: () => socket.serverNow(),
};

socket.connect();
