/**
 * The game socket (docs/protocol.md): the pages' shared socket (../../realtime/socket.js:
 * reconnection, retries of requests by id, close codes) plus what only a game needs: the
 * offset between this browser's clock and the server's, versions, actions and ticks.
 *
 * Why an offset: clocks are drawn from the server's `deadline`/`clock` instants, which are
 * server time. A phone whose clock is 3 s off would otherwise show a wrong clock. The best
 * estimate comes from ping/pong (half the round trip); a `state`'s server_time gives a first
 * estimate (off by at most the one-way latency) before the first pong.
 */

import {
  FINAL_CLOSE_CODES,
  RETRY_CODES,
  Socket,
  backoffDelay,
  requestId,
  socketUrl,
} from "../../realtime/socket.js";

// Re-exported: the game page and its tests have always found them here.
export { FINAL_CLOSE_CODES, RETRY_CODES, backoffDelay, requestId, socketUrl };

/** Monotonic "wall" milliseconds of this browser (not affected by clock changes). */
export function localNow() {
  return performance.timeOrigin + performance.now();
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
 * @typedef {object} GameHandlers
 * @property {(msg: object) => void} [onState]
 * @property {(msg: object) => void} [onPresence]
 * @property {(msg: object) => void} [onService] the database went away (database: false,
 *   with a message to show) or came back (database: true, a fresh state follows)
 * @property {(msg: object, action: object|undefined) => void} [onAck]
 * @property {(msg: object, action: object|undefined) => void} [onError]
 * @property {(msg: object, action: object|undefined) => void} [onRetry] a request will be sent again
 * @property {(status: "connecting"|"open"|"closed", info?: object) => void} [onStatus]
 *   "closed" carries {code, final}: final when the close code says not to reconnect.
 */

// Pings keep the clock offset fresh and prove the connection alive: one that is not
// answered in PONG_TIMEOUT_MS (nothing at all heard) is taken for dead and made again.
const PING_EVERY_MS = 10000;
const PONG_TIMEOUT_MS = 5000;

export class GameSocket extends Socket {
  /**
   * @param {string} url
   * @param {GameHandlers} handlers
   * @param {object} [env] WebSocket, timers and random source (the unit tests pass fakes),
   *   and actionKeys, the engine's ACTION_KEYS that requests are cleaned with
   */
  constructor(url, handlers = {}, env = {}) {
    super(
      url,
      {
        onStatus: handlers.onStatus,
        onMessage: (msg) => this.dispatch(msg),
        onReply: (msg, request) => this.dispatch(msg, request?.action),
        onRetry: (msg, request) => this.gameHandlers.onRetry?.(msg, request?.action),
      },
      env,
    );
    this.gameHandlers = handlers;
    this.actionKeys = env.actionKeys ?? {};
    this.clock = new OffsetEstimator();
    this.pings = new Map(); // ping sequence -> local sent time (FIFO)
    this.lastVersion = -1;
    this.pingTimer = null;
  }

  opened() {
    this.ping();
    this.env.clearInterval(this.pingTimer);
    this.pingTimer = this.env.setInterval(() => this.ping(), PING_EVERY_MS);
  }

  closed() {
    this.env.clearInterval(this.pingTimer);
    this.pings.clear();
  }

  /** Send an ACTION; returns its id, or null when the socket is not open. */
  send(action) {
    return this.request({ type: "action", action: cleanAction(action, this.actionKeys) });
  }

  /** A rematch answer about the finished game: "offer" or "decline". */
  rematch(answer) {
    return this.request({ type: "rematch", answer });
  }

  tick() {
    return this.sendRaw({ type: "tick" });
  }

  ping() {
    const sentAt = localNow();
    if (this.sendRaw({ type: "ping" })) {
      this.pings.set(sentAt, sentAt);
      this.expectAnswer(PONG_TIMEOUT_MS);
    }
  }

  /** A message from the server; `action` is the request it answers, if any. */
  dispatch(msg, action) {
    const handlers = this.gameHandlers;
    const now = localNow();
    switch (msg.type) {
      case "state":
        // Versions only grow; a late duplicate (e.g. a resync crossing a push) is ignored.
        if (typeof msg.version === "number" && msg.version < this.lastVersion) return;
        this.lastVersion = msg.version ?? this.lastVersion;
        this.clock.addState(msg.game?.server_time, now);
        handlers.onState?.(msg);
        break;
      case "presence":
        handlers.onPresence?.(msg);
        break;
      case "rematch":
        handlers.onRematch?.(msg);
        break;
      case "review":
        handlers.onReview?.(msg);
        break;
      case "service":
        handlers.onService?.(msg);
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
      case "ack":
        handlers.onAck?.(msg, action);
        break;
      case "error":
        handlers.onError?.(msg, action);
        break;
      default:
        break;
    }
  }

  serverNow() {
    return this.clock.serverNow();
  }
}
