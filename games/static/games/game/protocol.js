/**
 * The game socket (design.md, "WebSocket protocol"): reconnects by itself, estimates the
 * offset between this browser's clock and the server's, and keeps requests' ids.
 *
 * Why an offset: clocks are drawn from the server's `deadline`/`clock` instants, which are
 * server time. A phone whose clock is 3 s off would otherwise show a wrong clock. The best
 * estimate comes from ping/pong (half the round trip); a `state`'s server_time gives a first
 * estimate (off by at most the one-way latency) before the first pong.
 */

/** Monotonic "wall" milliseconds of this browser (not affected by clock changes). */
export function localNow() {
  return performance.timeOrigin + performance.now();
}

/** Turn a relative "/ws/..." path into an absolute ws:// or wss:// URL for this page. */
export function socketUrl(path, location = window.location) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * Keep the estimate with the smallest round trip among recent pongs: it is the tightest
 * bound on the true offset.
 */
export class OffsetEstimator {
  constructor() {
    this.offset = 0; // server - local, ms
    this.bestRtt = Infinity;
    this.fromPong = false;
  }

  /** A pong: server_time was read somewhere between `sentAt` and `receivedAt` (local). */
  addPong(serverTime, sentAt, receivedAt) {
    const rtt = Math.max(0, receivedAt - sentAt);
    // Samples age: after a minute a worse sample may replace an old best one (drift).
    if (!this.fromPong || rtt <= this.bestRtt * 1.5 || receivedAt - this.bestAt > 60000) {
      this.offset = serverTime - (sentAt + receivedAt) / 2;
      this.bestRtt = rtt;
      this.bestAt = receivedAt;
      this.fromPong = true;
    }
  }

  /** A state's server_time: only used until a pong gave a better estimate. */
  addState(serverTime, receivedAt) {
    if (!this.fromPong && Number.isFinite(serverTime)) this.offset = serverTime - receivedAt;
  }

  serverNow(local = localNow()) {
    return local + this.offset;
  }
}

let counter = 0;
/** A request id unique per client: random prefix + counter (the server echoes it back). */
export function requestId() {
  counter += 1;
  const rand = Math.random().toString(36).slice(2, 8);
  return `${rand}-${Date.now().toString(36)}-${counter}`;
}

/**
 * Close codes after which reconnecting cannot help (games/consumers.py): signed out,
 * forbidden, no such game. The page says why instead of retrying.
 */
export const FINAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

/** Errors that say "not now" rather than "no": the request is sent again, same id. */
export const RETRY_CODES = new Set(["rate_limited", "unavailable"]);

/**
 * Jittered exponential back-off: 400 ms doubling per attempt, capped at 8 s, ±25 %, so
 * that many pages losing the same server never come back in step.
 */
export function backoffDelay(attempt, random = Math.random) {
  return Math.min(8000, 400 * 2 ** attempt) * (0.75 + random() * 0.5);
}

/**
 * Only the keys an ACTION may carry: the engine refuses anything else as bad_request.
 * `actionKeys` is the engine's ACTION_KEYS ({do: [field, ...]}), delivered with the page.
 */
export function cleanAction(action, actionKeys) {
  const out = { do: action.do };
  for (const key of actionKeys[action.do] || []) if (action[key] !== undefined) out[key] = action[key];
  return out;
}

/**
 * @typedef {object} SocketHandlers
 * @property {(msg: object) => void} [onState]
 * @property {(msg: object) => void} [onPresence]
 * @property {(msg: object, action: object|undefined) => void} [onAck]
 * @property {(msg: object, action: object|undefined) => void} [onError]
 * @property {(msg: object, action: object|undefined) => void} [onRetry] a request will be sent again
 * @property {(status: "connecting"|"open"|"closed", info?: object) => void} [onStatus]
 *   "closed" carries {code, final}: final when the close code says not to reconnect.
 */

export class GameSocket {
  /**
   * @param {string} url
   * @param {SocketHandlers} handlers
   * @param {object} [env] WebSocket, timers and random source (the unit tests pass fakes),
   *   and actionKeys, the engine's ACTION_KEYS that requests are cleaned with
   */
  constructor(url, handlers = {}, env = {}) {
    this.url = url;
    this.handlers = handlers;
    this.env = {
      WebSocket: env.WebSocket ?? globalThis.WebSocket,
      setTimeout: env.setTimeout ?? ((f, ms) => setTimeout(f, ms)),
      clearTimeout: env.clearTimeout ?? ((t) => clearTimeout(t)),
      setInterval: env.setInterval ?? ((f, ms) => setInterval(f, ms)),
      clearInterval: env.clearInterval ?? ((t) => clearInterval(t)),
      random: env.random ?? Math.random,
    };
    this.actionKeys = env.actionKeys ?? {};
    this.clock = new OffsetEstimator();
    // id -> {action, attempts}: every request not answered yet. Kept across reconnects and
    // sent again with the same id, which the server answers once (idempotent on the id).
    this.pending = new Map();
    this.resendTimers = new Map(); // id -> timer of a back-off before sending it again
    this.pings = new Map(); // ping sequence -> local sent time (FIFO)
    this.retry = 0;
    this.ws = null;
    this.closedByUs = false;
    this.finalCode = null; // a close code after which there is no reconnecting
    this.lastVersion = -1;
    this.pingTimer = null;
  }

  connect() {
    this.closedByUs = false;
    this.handlers.onStatus?.("connecting", { attempt: this.retry });
    const ws = new this.env.WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.handlers.onStatus?.("open");
      this.ping();
      this.env.clearInterval(this.pingTimer);
      this.pingTimer = this.env.setInterval(() => this.ping(), 15000);
      this.resendPending();
    });
    ws.addEventListener("message", (e) => this.receive(e.data));
    ws.addEventListener("close", (e) => {
      this.env.clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.pings.clear();
      const final = FINAL_CLOSE_CODES.has(e.code);
      if (final) this.finalCode = e.code;
      this.handlers.onStatus?.("closed", { code: e.code, final });
      if (this.closedByUs || final) return;
      const delay = backoffDelay(this.retry, this.env.random);
      this.retry += 1;
      this.env.setTimeout(() => this.connect(), delay);
    });
  }

  /** Send every unanswered request again, oldest first, with its own id. */
  resendPending() {
    for (const [id, entry] of this.pending) {
      this.env.clearTimeout(this.resendTimers.get(id));
      this.resendTimers.delete(id);
      this.sendRaw({ type: "action", id, action: entry.action });
    }
  }

  /** A `rate_limited` or `unavailable` answer: the same request again after a back-off. */
  scheduleResend(id) {
    const entry = this.pending.get(id);
    if (!entry) return;
    const delay = backoffDelay(entry.attempts, this.env.random);
    entry.attempts += 1;
    this.env.clearTimeout(this.resendTimers.get(id));
    this.resendTimers.set(
      id,
      this.env.setTimeout(() => {
        this.resendTimers.delete(id);
        // Closed meanwhile: the reconnect sends it (resendPending).
        if (this.pending.has(id)) this.sendRaw({ type: "action", id, action: entry.action });
      }, delay),
    );
  }

  /** Forget a request (answered for good). */
  settle(id) {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    this.env.clearTimeout(this.resendTimers.get(id));
    this.resendTimers.delete(id);
    return entry?.action;
  }

  close() {
    this.closedByUs = true;
    this.env.clearInterval(this.pingTimer);
    this.ws?.close();
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === this.env.WebSocket.OPEN;
  }

  sendRaw(obj) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /** Send an ACTION; returns its id, or null when the socket is not open. */
  send(action) {
    const id = requestId();
    const clean = cleanAction(action, this.actionKeys);
    if (!this.sendRaw({ type: "action", id, action: clean })) return null;
    this.pending.set(id, { action: clean, attempts: 0 });
    return id;
  }

  tick() {
    return this.sendRaw({ type: "tick" });
  }

  ping() {
    const sentAt = localNow();
    if (this.sendRaw({ type: "ping" })) this.pings.set(sentAt, sentAt);
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    const now = localNow();
    switch (msg.type) {
      case "state":
        // Versions only grow; a late duplicate (e.g. a resync crossing a push) is ignored.
        if (typeof msg.version === "number" && msg.version < this.lastVersion) return;
        this.lastVersion = msg.version ?? this.lastVersion;
        this.clock.addState(msg.game?.server_time, now);
        this.handlers.onState?.(msg);
        break;
      case "presence":
        this.handlers.onPresence?.(msg);
        break;
      case "pong": {
        // Pongs come back in order: the oldest ping in flight is the one answered.
        const first = this.pings.keys().next();
        if (!first.done) {
          this.pings.delete(first.value);
          this.clock.addPong(msg.server_time, first.value, now);
        }
        break;
      }
      case "ack": {
        const action = this.settle(msg.id);
        this.handlers.onAck?.(msg, action);
        break;
      }
      case "error": {
        if (RETRY_CODES.has(msg.code) && this.pending.has(msg.id)) {
          this.scheduleResend(msg.id);
          this.handlers.onRetry?.(msg, this.pending.get(msg.id).action);
          break;
        }
        const action = this.settle(msg.id);
        this.handlers.onError?.(msg, action);
        break;
      }
      default:
        break;
    }
  }

  serverNow() {
    return this.clock.serverNow();
  }
}
