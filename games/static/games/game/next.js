/**
 * What comes after the game, for a seat: the page hears its player on the user socket
 * (../../js/user.js) as well as its game. A new game made for them (a challenge accepted,
 * the queue, an arena's next pairing) takes the page there once this game is over: at once,
 * or for an arena game after a short countdown the player can stop. The arena's result
 * (points won, streak, rank) and a place in the queue taken up again after a game against
 * the computer are drawn on the game-over card by `renderOver`.
 *
 * It decides nothing: the pairings, the arena's figures and the queue are the server's.
 */
import { listen, socket } from "../../js/user.js";

const fmt = (text, values) => interpolate(text, values, true);

const OVER = ["finished", "aborted", "cancelled"];
const QUEUE_TOUCH_MS = 5000; // the queue drops a place whose page went silent for 30 s

const csrf = () => document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";

export class NextGame {
  /**
   * @param {{gameId: number, seat: boolean, arenaUrl: string, onChange: () => void}} deps
   */
  constructor(deps) {
    this.deps = deps;
    this.view = null;
    this.arena = deps.arenaUrl ? undefined : null; // undefined: not read yet
    this.asked = false;
    this.next = null; // {url, game, at}: the player's next game, and when the page goes
    this.stopped = false; // the player chose to stay on this page
    this.leaving = false;
    this.queue = null; // the queue's status while the player waits in it again
    this.busy = false; // a Pause or Leave sent, not answered yet
    this.timer = null;
    if (deps.seat && socket) {
      listen(
        {
          onMessage: (message) => this.onMessage(message),
          onReply: (message) => this.onMessage(message),
          onOpen: () => socket.sendRaw({ type: "queue", do: "status" }),
        },
        { followsRedirects: true },
      );
    }
  }

  get over() {
    return Boolean(this.view && OVER.includes(this.view.status));
  }

  /** Every state of the game: once it is over, the arena is read (once) and a next game
   * already made is gone to. */
  update(view) {
    this.view = view;
    if (!this.over || !this.deps.seat) return;
    this.loadCard();
    if (this.arena === undefined && !this.asked) this.readArena();
    this.decide();
  }

  readArena() {
    this.asked = true;
    fetch(this.deps.arenaUrl, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : { arena: null }))
      .catch(() => ({ arena: null }))
      .then((data) => {
        this.arena = data.arena ?? null;
        this.decide();
        this.deps.onChange();
      });
  }

  onMessage(message) {
    if (message.type === "redirect" && message.url && message.game !== this.deps.gameId) {
      if (!this.next || this.next.game !== message.game) this.next = { url: message.url, game: message.game, at: 0 };
      this.decide();
      this.deps.onChange();
    } else if (message.type === "queue") {
      this.onQueue(message);
    }
  }

  onQueue(status) {
    const waiting = status.in_queue ? status : null;
    if (waiting && !this.queue) {
      // Back in the queue: this page keeps the place (its socket takes it, and leaving the
      // page gives it up, as on "Play now") until the pairing comes.
      socket.request({ type: "queue", do: "join" });
      this.timer ??= window.setInterval(() => socket.sendRaw({ type: "queue", do: "status" }), QUEUE_TOUCH_MS);
    }
    if (!waiting && this.timer) {
      window.clearInterval(this.timer);
      this.timer = null;
    }
    if (!waiting && status.url && this.over && status.game !== this.deps.gameId) {
      this.onMessage({ type: "redirect", url: status.url, game: status.game }); // paired meanwhile
    }
    this.queue = waiting;
    this.busy = false;
    this.deps.onChange();
  }

  /** Go to the next game: at once, or after the arena's countdown unless stopped. */
  decide() {
    if (!this.next || this.leaving || !this.over || this.arena === undefined) return;
    if (!this.arena) {
      this.go();
      return;
    }
    if (this.stopped) return;
    if (!this.next.at) {
      this.next.at = Date.now() + this.arena.next_seconds * 1000;
      this.countdown = window.setInterval(() => this.tick(), 200);
    }
    this.tick();
  }

  tick() {
    const left = this.next.at - Date.now();
    if (left <= 0) {
      this.go();
      return;
    }
    const line = document.querySelector("#overlay [data-role=next-countdown]");
    if (line) line.textContent = this.countdownText(left);
  }

  countdownText(left) {
    return fmt(gettext("Your next game opens in %(s)s s."), { s: Math.ceil(left / 1000) });
  }

  go() {
    if (this.leaving) return;
    this.leaving = true;
    window.clearInterval(this.countdown);
    window.location.assign(this.next.url);
  }

  stay() {
    this.stopped = true;
    window.clearInterval(this.countdown);
    this.deps.onChange();
  }

  /** A plain POST of the arena's (Pause, Rejoin), sent without leaving the page. */
  post(url, state) {
    this.busy = true;
    this.deps.onChange();
    const body = new FormData();
    body.append("csrfmiddlewaretoken", csrf());
    fetch(url, { method: "POST", body, credentials: "same-origin", redirect: "manual" })
      .then(() => {
        this.arena = { ...this.arena, state };
        if (state === "paused") this.stay();
      })
      .catch(() => {})
      .finally(() => {
        this.busy = false;
        this.deps.onChange();
      });
  }

  /**
   * The card's part of what comes next (games/next-card.js, fetched once the game is over:
   * no player needs it before); until it is here the card has none, and it is drawn again.
   */
  renderOver(body, foot) {
    if (this.card) return this.card.renderOver(this, body, foot);
    this.loadCard();
    return { primary: null, arena: false, after: [] };
  }

  loadCard() {
    if (this.loadingCard) return;
    this.loadingCard = true;
    import("../next-card.js")
      .then((card) => {
        this.card = card;
        this.deps.onChange();
      })
      .catch(() => {
        this.loadingCard = false; // a later drawing of the card asks again
      });
  }
}
