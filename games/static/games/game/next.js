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
import { button, el } from "./dom.js";

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
   * The card's part of what comes next, for a seat once the game is over; returns
   * `{primary, arena, after}`: the control to focus, whether the arena replaces the rematch
   * and the way back to the lobby, and controls to put after the card's own primary.
   */
  renderOver(body, foot) {
    let primary = null;
    const after = []; // drawn after the card's own primary (a new game against the computer)
    const a = this.arena;
    if (a) {
      body.appendChild(this.arenaBlock(a));
      if (this.next && !this.stopped) {
        const line = el("p", "overlay__countdown", this.countdownText(Math.max(0, this.next.at - Date.now())));
        line.dataset.role = "next-countdown";
        line.setAttribute("role", "timer");
        primary = button(gettext("Stay here"), "next-stay", () => this.stay(), "button--primary");
        foot.append(line, primary);
      } else if (this.next) {
        primary = el("a", "button button--primary", gettext("Go to your next game"));
        primary.href = this.next.url;
        primary.dataset.action = "next-go";
        foot.appendChild(primary);
      } else if (a.state === "active" && a.status === "running") {
        foot.appendChild(el("p", "overlay__countdown", gettext("Waiting for your next opponent…")));
      }
      if (a.status === "running" && a.state === "active") {
        const pause = button(gettext("Pause"), "arena-pause", () => this.post(a.pause_url, "paused"));
        pause.disabled = this.busy;
        foot.appendChild(pause);
      } else if (a.status === "running" && a.state === "paused") {
        const resume = button(gettext("Resume the arena"), "arena-join", () => this.post(a.join_url, "active"));
        resume.disabled = this.busy;
        foot.appendChild(resume);
      }
      const back = el("a", primary ? "button" : "button button--primary", gettext("Back to the arena"));
      back.href = a.url;
      back.dataset.action = "arena";
      foot.appendChild(back);
      primary ??= back;
    }
    if (this.queue) {
      const note = el(
        "p",
        "overlay__queue",
        fmt(
          ngettext(
            "You are back in the queue: %(n)s player waiting.",
            "You are back in the queue: %(n)s players waiting.",
            this.queue.waiting,
          ),
          { n: this.queue.waiting },
        ),
      );
      note.setAttribute("role", "status");
      const leave = button(gettext("Leave the queue"), "queue-leave", () => {
        this.busy = true;
        socket.request({ type: "queue", do: "leave" });
        this.deps.onChange();
      });
      leave.disabled = this.busy;
      foot.prepend(note);
      after.push(leave);
    }
    return { primary, arena: Boolean(a), after };
  }

  arenaBlock(a) {
    const block = el("div", "overlay__arena");
    const title = el("p", "overlay__arena-name");
    const link = el("a", "", a.name);
    link.href = a.url;
    title.append(link);
    const figures = [
      fmt(ngettext("+%(n)s point", "+%(n)s points", a.points), { n: a.points }),
      fmt(gettext("score %(n)s"), { n: a.score }),
    ];
    if (a.streak) figures.push(fmt(gettext("streak %(n)s"), { n: a.streak }) + (a.fire ? " ×2" : ""));
    if (a.rank) figures.push(fmt(gettext("rank %(rank)s of %(n)s"), { rank: a.rank, n: a.players }));
    block.append(title, el("p", "overlay__arena-figures", figures.join(" · ")));
    if (a.state === "paused") block.append(el("p", "muted", gettext("Paused: you get no new game until you resume.")));
    if (a.status !== "running") block.append(el("p", "muted", gettext("The arena is over.")));
    return block;
  }
}
