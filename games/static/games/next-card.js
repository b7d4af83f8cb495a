/**
 * The game-over card's part of what comes next, for a seat (./game/next.js decides it): an
 * arena's result and its next game, or the place in the queue taken up again. Fetched only
 * once the game is over, so that the page opens lighter.
 */
import { socket } from "../js/user.js";
import { button, el } from "./game/dom.js";

const fmt = (text, values) => interpolate(text, values, true);

/**
 * The card's part of what comes next, for a seat once the game is over; returns
 * `{primary, arena, after}`: the control to focus, whether the arena replaces the rematch
 * and the way back to the lobby, and controls to put after the card's own primary.
 */
export function renderOver(next, body, foot) {
  let primary = null;
  const after = []; // drawn after the card's own primary (a new game against the computer)
  const a = next.arena;
  if (a) {
    body.appendChild(arenaBlock(a));
    if (next.next && !next.stopped) {
      const line = el("p", "overlay__countdown", next.countdownText(Math.max(0, next.next.at - Date.now())));
      line.dataset.role = "next-countdown";
      line.setAttribute("role", "timer");
      primary = button(gettext("Stay here"), "next-stay", () => next.stay(), "button--primary");
      foot.append(line, primary);
    } else if (next.next) {
      primary = el("a", "button button--primary", gettext("Go to your next game"));
      primary.href = next.next.url;
      primary.dataset.action = "next-go";
      foot.appendChild(primary);
    } else if (a.state === "active" && a.status === "running") {
      foot.appendChild(el("p", "overlay__countdown", gettext("Waiting for your next opponent…")));
    }
    if (a.status === "running" && a.state === "active") {
      const pause = button(gettext("Pause"), "arena-pause", () => next.post(a.pause_url, "paused"));
      pause.disabled = next.busy;
      foot.appendChild(pause);
    } else if (a.status === "running" && a.state === "paused") {
      const resume = button(gettext("Resume the arena"), "arena-join", () => next.post(a.join_url, "active"));
      resume.disabled = next.busy;
      foot.appendChild(resume);
    }
    const back = el("a", primary ? "button" : "button button--primary", gettext("Back to the arena"));
    back.href = a.url;
    back.dataset.action = "arena";
    foot.appendChild(back);
    primary ??= back;
  }
  if (next.queue) {
    const note = el(
      "p",
      "overlay__queue",
      fmt(
        ngettext(
          "You are back in the queue: %(n)s player waiting.",
          "You are back in the queue: %(n)s players waiting.",
          next.queue.waiting,
        ),
        { n: next.queue.waiting },
      ),
    );
    note.setAttribute("role", "status");
    const leave = button(gettext("Leave the queue"), "queue-leave", () => {
      next.busy = true;
      socket.request({ type: "queue", do: "leave" });
      next.deps.onChange();
    });
    leave.disabled = next.busy;
    foot.prepend(note);
    after.push(leave);
  }
  return { primary, arena: Boolean(a), after };
}

function arenaBlock(a) {
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
