/**
 * Clocks: drawn from the server's instants, never decided here (docs/architecture.md, "The clock").
 *
 * The view carries `clock` = {running, decision_start, delay_end, flag_at} in epoch
 * SECONDS, each player's `bank` (seconds left as of the view's `now`), and `deadline` /
 * `server_time` in epoch MILLISECONDS. Given the server's "now" (local time + offset),
 * what to show is plain arithmetic; the only thing the page does when a clock reaches
 * zero is to send `tick`, so that the server looks at its own clock (R7.6).
 *
 * Rule numbers come from the view too (`view.rules`, the engine's RULES), never from here.
 */

/** The delay of every decision (R7.2) in ms, from the view's rules; 0 before any view. */
export function delayMs(view) {
  return (view?.rules?.delay ?? 0) * 1000;
}

export const LOW_BANK_MS = 20000;

/**
 * What each player's clock shows at `serverNow` (ms).
 * @returns {{seat: number, running: boolean, delay: number, bank: number, low: boolean, out: boolean}[]}
 *   delay and bank in ms, never negative.
 */
export function clockReadout(view, serverNow) {
  const clock = view?.clock || null;
  return [0, 1].map((seat) => {
    const bankSeconds = view?.players?.[seat]?.bank ?? 0;
    if (clock && clock.running === seat && view.status === "playing") {
      const delayEnd = clock.delay_end * 1000;
      const flagAt = clock.flag_at * 1000;
      const delay = Math.max(0, delayEnd - serverNow);
      const bank = Math.max(0, flagAt - Math.max(serverNow, delayEnd));
      return {
        seat,
        running: true,
        delay,
        bank,
        low: delay === 0 && bank < LOW_BANK_MS,
        out: serverNow >= flagAt,
      };
    }
    // A player who is not running has the whole delay ahead (R7.2).
    return { seat, running: false, delay: delayMs(view), bank: bankSeconds * 1000, low: false, out: false };
  });
}

/** Seconds left before a timed transition in epoch seconds (P1 start, P2 continue), >= 0. */
export function secondsUntil(epochSeconds, serverNow) {
  if (epochSeconds === null || epochSeconds === undefined) return null;
  return Math.max(0, Math.ceil((epochSeconds * 1000 - serverNow) / 1000));
}

/** "1:54" for the bank; "7.3" under ten seconds, where tenths matter. */
export function formatClock(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return s.toFixed(1);
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The delay is at most 10 s: always seconds with tenths ("10.0", "3.4"). */
export function formatDelay(ms) {
  return (Math.max(0, ms) / 1000).toFixed(1);
}

/**
 * Should the page send `tick` now? When the view's deadline (flag, P1 abort, P2 continue)
 * has passed by server time: once at zero, then again every second while no new state
 * arrives (a lost message must not freeze the game on a zero clock).
 */
export class TickPolicy {
  constructor(intervalMs = 1000) {
    this.intervalMs = intervalMs;
    this.lastTickAt = -Infinity;
  }

  /** A new state arrived: the next zero gets an immediate tick. */
  reset() {
    this.lastTickAt = -Infinity;
  }

  shouldTick(view, serverNow, localNow) {
    const deadline = view?.deadline;
    if (deadline === null || deadline === undefined) return false;
    if (view.status !== "playing" && view.status !== "waiting") return false;
    if (serverNow < deadline) return false;
    if (localNow - this.lastTickAt < this.intervalMs) return false;
    this.lastTickAt = localNow;
    return true;
  }
}

/** One clock's readout into its slot {delay, bank, box} (also the how-to page's pictures). */
export function drawClock(slot, r, view) {
  slot.delay.textContent = formatDelay(r.delay);
  slot.bank.textContent = formatClock(r.bank);
  slot.box.classList.toggle("clock--running", r.running);
  slot.box.classList.toggle("clock--in-bank", r.running && r.delay === 0);
  slot.box.classList.toggle("clock--low", r.low);
  slot.box.classList.toggle("clock--out", r.out);
  const full = delayMs(view);
  slot.box.style.setProperty("--delay-frac", String(full > 0 ? r.delay / full : 0));
}

/**
 * Draws both players' clocks every animation frame and asks for ticks.
 */
export class ClockView {
  /**
   * @param {(seat: number) => {delay: HTMLElement, bank: HTMLElement, box: HTMLElement}|null} slots
   * @param {{serverNow: () => number, localNow: () => number, onTick: () => void,
   *          onFrame?: (serverNow: number) => void, onLowSecond?: (seat: number) => void}} deps
   */
  constructor(slots, deps) {
    this.slots = slots;
    this.deps = deps;
    this.view = null;
    this.policy = new TickPolicy();
    this.lastWhole = null;
    this.frame = this.frame.bind(this);
    requestAnimationFrame(this.frame);
  }

  update(view) {
    this.view = view;
    this.policy.reset();
  }

  frame() {
    requestAnimationFrame(this.frame);
    const view = this.view;
    if (!view) return;
    const serverNow = this.deps.serverNow();
    for (const r of clockReadout(view, serverNow)) {
      const slot = this.slots(r.seat);
      if (!slot) continue;
      drawClock(slot, r, view);
      if (r.running && r.low) {
        const whole = Math.ceil(r.bank / 1000);
        if (whole !== this.lastWhole) {
          this.lastWhole = whole;
          this.deps.onLowSecond?.(r.seat);
        }
      }
    }
    this.deps.onFrame?.(serverNow);
    if (this.policy.shouldTick(view, serverNow, this.deps.localNow())) this.deps.onTick();
  }
}
