// Socket helpers (games/static/games/game/protocol.js): offset estimation, clean actions,
// and the retries of requests and connections.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  GameSocket,
  OffsetEstimator,
  backoffDelay,
  cleanAction,
  requestId,
  socketUrl,
} from "../../games/static/games/game/protocol.js";
import { FakeSocket, manualTimers } from "./fakes.mjs";

describe("OffsetEstimator", () => {
  it("uses a state's server_time until a pong, then half the round trip", () => {
    const c = new OffsetEstimator();
    c.addState(10_000, 7_000);
    assert.equal(c.offset, 3_000);
    c.addPong(20_100, 17_000, 17_200); // server read at local 17_100
    assert.equal(c.offset, 3_000);
    c.addState(99_999, 0); // ignored once a pong was seen
    assert.equal(c.offset, 3_000);
    c.addPong(30_000, 26_000, 28_000); // slow round trip: not better, ignored
    assert.equal(c.offset, 3_000);
    assert.equal(c.serverNow(1_000), 4_000);
  });
});

describe("actions", () => {
  it("sends only the keys the engine's ACTION_KEYS give the request", () => {
    const keys = { play: ["tile", "end"], bid: ["amount"], draw: [] };
    assert.deepEqual(cleanAction({ do: "play", tile: "6-4", end: "right", count: 15 }, keys), {
      do: "play",
      tile: "6-4",
      end: "right",
    });
    assert.deepEqual(cleanAction({ do: "bid", amount: 20 }, keys), { do: "bid", amount: 20 });
    assert.deepEqual(cleanAction({ do: "draw", amount: 20 }, keys), { do: "draw" });
    assert.deepEqual(cleanAction({ do: "nonsense", tile: "6-4" }, keys), { do: "nonsense" });
  });

  it("makes unique ids and socket URLs", () => {
    assert.notEqual(requestId(), requestId());
    assert.equal(socketUrl("/ws/games/3/", { protocol: "https:", host: "x.org" }), "wss://x.org/ws/games/3/");
    assert.equal(socketUrl("/ws/games/3/", { protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/ws/games/3/");
  });
});

// ---------------------------------------------------------------- retries

function harness(handlers = {}) {
  FakeSocket.made = [];
  const timers = manualTimers();
  const events = [];
  const socket = new GameSocket(
    "ws://x/ws/games/1/",
    {
      onAck: (msg) => events.push(["ack", msg.id]),
      onError: (msg) => events.push(["error", msg.id, msg.code]),
      onRetry: (msg) => events.push(["retry", msg.id, msg.code]),
      onStatus: (status, info) => events.push(["status", status, info?.code, info?.final]),
      ...handlers,
    },
    {
      WebSocket: FakeSocket,
      setTimeout: (f, ms) => timers.setTimeout(f, ms),
      clearTimeout: (id) => timers.clearTimeout(id),
      setInterval: () => 0, // no pings in these tests
      clearInterval: () => {},
      random: () => 0.5,
      actionKeys: { draw: [], play: ["tile", "end"] },
    },
  );
  socket.connect();
  FakeSocket.made[0].open();
  return { socket, timers, events, ws: () => FakeSocket.made.at(-1) };
}

describe("backoffDelay", () => {
  it("doubles from 400 ms up to 8 s, with ±25 % jitter", () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, () => 0.5)), [
      400, 800, 1600, 3200, 6400, 8000, 8000,
    ]);
    assert.equal(backoffDelay(0, () => 0), 300);
    assert.equal(backoffDelay(10, () => 1), 10000);
  });
});

describe("GameSocket retries", () => {
  it("sends a rate-limited request again after a back-off, with the same id", () => {
    const { socket, timers, events, ws } = harness();
    const id = socket.send({ do: "draw" });
    ws().answer({ type: "error", id, code: "rate_limited", message: "slow down" });
    assert.deepEqual(events.at(-1), ["retry", id, "rate_limited"]);
    assert.equal(ws().actions().length, 1);
    timers.run();
    assert.deepEqual(ws().actions().map((m) => m.id), [id, id]);
    assert.deepEqual(ws().actions()[1].action, { do: "draw" });
    // Refused again: the back-off grows.
    ws().answer({ type: "error", id, code: "rate_limited", message: "slow down" });
    timers.run();
    assert.equal(ws().actions().length, 3);
    assert.ok(timers.delays.at(-1) > timers.delays.at(-2));
    ws().answer({ type: "ack", id, version: 4 });
    assert.deepEqual(events.at(-1), ["ack", id]);
    assert.equal(socket.pending.size, 0);
  });

  it("gives a final error to the page and forgets the request", () => {
    const { socket, timers, events, ws } = harness();
    const id = socket.send({ do: "draw" });
    ws().answer({ type: "error", id, code: "not_your_turn", message: "no" });
    assert.deepEqual(events.at(-1), ["error", id, "not_your_turn"]);
    assert.equal(socket.pending.size, 0);
    timers.run();
    assert.equal(ws().actions().length, 1);
  });

  it("retries an unavailable request, and sends unanswered ones again on reconnect", () => {
    const { socket, timers, events, ws } = harness();
    const first = ws();
    const id = socket.send({ do: "play", tile: "5-0", end: "left" });
    first.answer({ type: "error", id, code: "unavailable", message: "lost" });
    assert.deepEqual(events.at(-1), ["retry", id, "unavailable"]);
    first.drop(1011); // the server went away before the retry
    assert.deepEqual(events.at(-1), ["status", "closed", 1011, false]);
    assert.equal(socket.pending.size, 1); // kept across the reconnect
    timers.run(); // the reconnect (the resend timer found the socket closed)
    assert.equal(FakeSocket.made.length, 2);
    assert.equal(ws().actions().length, 0);
    ws().open();
    assert.deepEqual(ws().actions(), [{ type: "action", id, action: { do: "play", tile: "5-0", end: "left" } }]);
    ws().answer({ type: "ack", id, version: 9 });
    assert.equal(socket.pending.size, 0);
    timers.run();
    assert.equal(ws().actions().length, 1); // no stray resend after the ack
  });
  // Reconnecting, its back-off and the final close codes are the shared client's:
  // tests/js/socket.test.mjs.
});

describe("GameSocket rematch", () => {
  it("sends a rematch answer as a request, and hands rematch news to the page", () => {
    const seen = [];
    const { socket, events, ws } = harness({ onRematch: (msg) => seen.push(msg) });
    const id = socket.rematch("offer");
    const sent = ws().sent.filter((m) => m.type === "rematch");
    assert.deepEqual(sent, [{ type: "rematch", id, answer: "offer" }]);
    ws().answer({ type: "ack", id, game: 42 });
    assert.deepEqual(events.at(-1), ["ack", id]);
    assert.equal(socket.pending.size, 0);
    ws().answer({ type: "rematch", offered_by: null, game: 42, declined_by: null });
    assert.deepEqual(seen, [{ type: "rematch", offered_by: null, game: 42, declined_by: null }]);
  });
});

describe("GameSocket service notices", () => {
  it("hands the database's going and coming back to the page, answering no request", () => {
    const seen = [];
    const { socket, ws } = harness({ onService: (msg) => seen.push(msg) });
    const id = socket.send({ do: "start" });
    ws().answer({ type: "service", database: false, message: "cannot save moves" });
    ws().answer({ type: "service", database: true });
    assert.deepEqual(seen, [
      { type: "service", database: false, message: "cannot save moves" },
      { type: "service", database: true },
    ]);
    assert.ok(socket.pending.has(id)); // still waiting for its own answer
  });
});
