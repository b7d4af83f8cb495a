/**
 * The one WebSocket client of the pages (the game page, the lobby and "Play now"): it
 * reconnects by itself with a jittered exponential back-off, never throws on a message
 * that is not JSON, stops for good on the close codes that say retrying cannot help, and
 * keeps every request that carries an id until something answers that id, sending it
 * again (same id) after a `rate_limited` or `unavailable` answer and on reconnect.
 *
 * The game socket (games/game/protocol.js) builds its clock and actions on it; the
 * lobby's pages use it as it is. docs/protocol.md describes the messages.
 */

/** Turn a relative "/ws/..." path into an absolute ws:// or wss:// URL for this page. */
export function socketUrl(path, location = window.location) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

let counter = 0;
/** A request id unique per client: random prefix + counter (the server echoes it back). */
export function requestId() {
  counter += 1;
  const rand = Math.random().toString(36).slice(2, 8);
  return `${rand}-${Date.now().toString(36)}-${counter}`;
}

/**
 * Close codes after which reconnecting cannot help (games/live/consumer.py): signed out,
 * forbidden, not found. The page says why instead of retrying.
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

/** The message as an object, or null when it is not JSON or not an object. */
export function parseMessage(text) {
  try {
    const msg = JSON.parse(text);
    return msg !== null && typeof msg === "object" && !Array.isArray(msg) ? msg : null;
  } catch {
    return null;
  }
}

/**
 * @typedef {object} SocketHandlers
 * @property {(msg: object) => void} [onMessage] every message that answers no request
 * @property {(msg: object, request: object|undefined) => void} [onReply] a request's answer
 * @property {(msg: object, request: object|undefined) => void} [onRetry] a request will be sent again
 * @property {() => void} [onOpen] (re)connected; unanswered requests have just been sent again
 * @property {(status: "connecting"|"open"|"closed", info?: object) => void} [onStatus]
 *   "closed" carries {code, final}: final when the close code says not to reconnect.
 */

export class Socket {
  /**
   * @param {string} url
   * @param {SocketHandlers} handlers
   * @param {object} [env] WebSocket, timers and random source (the unit tests pass fakes)
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
      now: env.now ?? (() => Date.now()),
      // Where the browser says it went offline or online (none in the unit tests).
      window: env.window ?? (typeof window === "undefined" ? null : window),
    };
    // id -> {message, attempts}: every request not answered yet. Kept across reconnects and
    // sent again with the same id, which the server answers once (idempotent on the id).
    this.pending = new Map();
    this.resendTimers = new Map(); // id -> timer of a back-off before sending it again
    this.retry = 0;
    this.ws = null;
    this.closedByUs = false;
    this.finalCode = null; // a close code after which there is no reconnecting
    this.lastHeard = 0; // when the server last said anything on this socket
    this.reconnectTimer = null;
    // A connection that dies without a close (a phone leaving its Wi-Fi, a cut path) says
    // nothing for a minute or more: the browser going offline, or an answer that does not
    // come (expectAnswer), counts as the close instead.
    this.env.window?.addEventListener("offline", () => this.abandon());
    this.env.window?.addEventListener("online", () => this.reconnectNow());
  }

  connect() {
    this.closedByUs = false;
    this.handlers.onStatus?.("connecting", { attempt: this.retry });
    const ws = new this.env.WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.handlers.onStatus?.("open");
      this.resendPending();
      this.opened();
      this.handlers.onOpen?.();
    });
    ws.addEventListener("message", (e) => {
      if (this.ws !== ws) return; // abandoned: its late words are not this socket's
      this.lastHeard = this.env.now();
      this.receive(e.data);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.lost(e.code);
    });
  }

  /** The connection is gone (closed with `code`): say so, and reconnect unless told not to. */
  lost(code) {
    this.closed();
    const final = FINAL_CLOSE_CODES.has(code);
    if (final) this.finalCode = code;
    this.handlers.onStatus?.("closed", { code, final });
    if (this.closedByUs || final) return;
    const delay = backoffDelay(this.retry, this.env.random);
    this.retry += 1;
    this.env.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = this.env.setTimeout(() => this.connect(), delay);
  }

  /**
   * Give up on the connection now, as if it had closed (code 1006): one that went silent
   * can take a minute to report its end. Its own close, whenever it comes, is ignored.
   */
  abandon() {
    const ws = this.ws;
    if (!ws || this.closedByUs || this.finalCode !== null) return;
    this.ws = null;
    try {
      ws.close();
    } catch {
      // closing a socket that never opened may throw in some browsers: it is dropped anyway
    }
    this.lost(1006);
  }

  /** Back online: connect at once rather than at the end of the back-off. */
  reconnectNow() {
    if (this.closedByUs || this.finalCode !== null || this.isOpen) return;
    if (this.ws && this.ws.readyState === 0) return; // already connecting
    this.env.clearTimeout(this.reconnectTimer);
    this.retry = 0;
    this.connect();
  }

  /**
   * Something was just sent that the server answers at once (a ping): if nothing at all is
   * heard within `ms`, the connection is taken for dead (abandon) and made again.
   */
  expectAnswer(ms) {
    const ws = this.ws;
    const sentAt = this.env.now();
    this.env.setTimeout(() => {
      if (this.ws === ws && this.lastHeard < sentAt) this.abandon();
    }, ms);
  }

  /** Hooks for a subclass: the socket has just opened / closed. */
  opened() {}

  closed() {}

  /** Send every unanswered request again, oldest first, with its own id. */
  resendPending() {
    for (const [id, entry] of this.pending) {
      this.env.clearTimeout(this.resendTimers.get(id));
      this.resendTimers.delete(id);
      this.sendRaw({ ...entry.message, id });
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
        if (this.pending.has(id)) this.sendRaw({ ...entry.message, id });
      }, delay),
    );
  }

  /** Forget a request (answered for good); returns what it asked. */
  settle(id) {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    this.env.clearTimeout(this.resendTimers.get(id));
    this.resendTimers.delete(id);
    return entry?.message;
  }

  close() {
    this.closedByUs = true;
    this.closed();
    this.ws?.close();
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === this.env.WebSocket.OPEN;
  }

  /** Send a message that expects no answer by id; false when the socket is not open. */
  sendRaw(obj) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /**
   * Send a request, kept until a message with its id answers it; returns the id, or null
   * when the socket is not open (the request is then not kept: the page decides).
   */
  request(message) {
    const id = requestId();
    if (!this.sendRaw({ ...message, id })) return null;
    this.pending.set(id, { message, attempts: 0 });
    return id;
  }

  receive(text) {
    const msg = parseMessage(text);
    if (msg === null) return;
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      if (msg.type === "error" && RETRY_CODES.has(msg.code)) {
        this.scheduleResend(msg.id);
        this.handlers.onRetry?.(msg, this.pending.get(msg.id).message);
        return;
      }
      this.handlers.onReply?.(msg, this.settle(msg.id));
      return;
    }
    this.handlers.onMessage?.(msg);
  }
}
