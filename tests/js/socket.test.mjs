// The pages' shared socket (realtime/static/realtime/socket.js): guarded parsing, replies by id,
// retries of requests, reconnection and the close codes that stop it. The game socket's
// own tests (protocol.test.mjs) cover the same behaviour through GameSocket.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { FINAL_CLOSE_CODES, Socket, parseMessage } from "../../realtime/static/realtime/socket.js";
import { FakeSocket, manualTimers } from "./fakes.mjs";

function harness() {
  FakeSocket.made = [];
  const timers = manualTimers();
  const events = [];
  const socket = new Socket(
    "ws://x/ws/lobby/",
    {
      onMessage: (msg) => events.push(["message", msg.type]),
      onReply: (msg, request) => events.push(["reply", msg.id, msg.type, request?.do]),
      onRetry: (msg, request) => events.push(["retry", msg.id, msg.code, request?.do]),
      onOpen: () => events.push(["open"]),
      onStatus: (status, info) => events.push(["status", status, info?.code, info?.final]),
    },
    {
      WebSocket: FakeSocket,
      setTimeout: (f, ms) => timers.setTimeout(f, ms),
      clearTimeout: (id) => timers.clearTimeout(id),
      setInterval: () => 0,
      clearInterval: () => {},
      random: () => 0.5,
    },
  );
  socket.connect();
  FakeSocket.made[0].open();
  return { socket, timers, events, ws: () => FakeSocket.made.at(-1) };
}

const raw = (ws, text) => {
  const e = new Event("message");
  e.data = text;
  ws.dispatchEvent(e);
};

describe("parseMessage", () => {
  it("returns objects only, and never throws", () => {
    assert.deepEqual(parseMessage('{"type":"pong"}'), { type: "pong" });
    for (const text of ["", "not json", "[1,2]", "null", "42", '"x"', "{"]) {
      assert.equal(parseMessage(text), null, text);
    }
  });
});

describe("Socket", () => {
  it("ignores what is not a JSON object and passes on the rest", () => {
    const { events, ws } = harness();
    raw(ws(), "garbage{");
    raw(ws(), "[]");
    ws().answer({ type: "challenges", challenges: [] });
    assert.deepEqual(events.filter((e) => e[0] === "message"), [["message", "challenges"]]);
  });

  it("matches a reply to its request by id, and passes unknown ids on as messages", () => {
    const { socket, events, ws } = harness();
    const id = socket.request({ type: "queue", do: "join" });
    assert.deepEqual(ws().sent.at(-1), { type: "queue", do: "join", id });
    ws().answer({ type: "queue", id, in_queue: true });
    assert.deepEqual(events.at(-1), ["reply", id, "queue", "join"]);
    assert.equal(socket.pending.size, 0);
    ws().answer({ type: "queue", id, in_queue: true }); // answered already: just a message
    assert.deepEqual(events.at(-1), ["message", "queue"]);
  });

  it("sends a refused-for-now request again after a back-off, same id", () => {
    const { socket, timers, events, ws } = harness();
    const id = socket.request({ type: "queue", do: "leave" });
    ws().answer({ type: "error", id, code: "rate_limited", message: "slow down" });
    assert.deepEqual(events.at(-1), ["retry", id, "rate_limited", "leave"]);
    timers.run();
    assert.deepEqual(ws().sent.map((m) => m.id), [id, id]);
    ws().answer({ type: "error", id, code: "bad_request", message: "no" });
    assert.deepEqual(events.at(-1), ["reply", id, "error", "leave"]);
    assert.equal(socket.pending.size, 0);
  });

  it("sends unanswered requests again on reconnect, before telling the page", () => {
    const { socket, timers, events, ws } = harness();
    const id = socket.request({ type: "queue", do: "join" });
    assert.equal(socket.sendRaw({ type: "queue", do: "status" }), true); // not kept
    ws().drop(1006);
    assert.deepEqual(events.at(-1), ["status", "closed", 1006, false]);
    assert.equal(socket.request({ type: "queue", do: "status" }), null); // closed: not kept
    timers.run();
    ws().open();
    assert.deepEqual(ws().sent, [{ type: "queue", do: "join", id }]);
    assert.deepEqual(events.at(-1), ["open"]);
  });

  it("reconnects with a jittered, growing back-off that an open resets", () => {
    const { socket, timers, ws } = harness();
    ws().drop(1011);
    timers.run();
    ws().drop(1006);
    timers.run();
    assert.deepEqual(timers.delays, [400, 800]);
    ws().open();
    assert.equal(socket.retry, 0);
  });

  for (const code of FINAL_CLOSE_CODES) {
    it(`stops on close code ${code} and says so`, () => {
      const { socket, timers, events, ws } = harness();
      ws().drop(code);
      assert.deepEqual(events.at(-1), ["status", "closed", code, true]);
      assert.equal(socket.finalCode, code);
      assert.equal(timers.size, 0);
      assert.equal(FakeSocket.made.length, 1);
    });
  }

  it("does not reconnect after the page closes it", () => {
    const { socket, timers } = harness();
    socket.close();
    assert.equal(timers.size, 0);
    assert.equal(FakeSocket.made.length, 1);
  });
});

describe("Socket liveness", () => {
  function live() {
    FakeSocket.made = [];
    const timers = manualTimers();
    const events = [];
    const clock = { now: 1000 };
    const win = new EventTarget();
    const socket = new Socket(
      "ws://x/ws/games/1/",
      {
        onMessage: (msg) => events.push(["message", msg.type]),
        onStatus: (status, info) => events.push(["status", status, info?.code]),
      },
      {
        WebSocket: FakeSocket,
        setTimeout: (f, ms) => timers.setTimeout(f, ms),
        clearTimeout: (id) => timers.clearTimeout(id),
        random: () => 0.5,
        now: () => clock.now,
        window: win,
      },
    );
    socket.connect();
    FakeSocket.made[0].open();
    return { socket, timers, events, clock, win };
  }

  it("takes a connection that answers nothing in time for dead, and makes a new one", () => {
    const { socket, timers, events, clock } = live();
    socket.expectAnswer(5000);
    clock.now += 5000;
    timers.run(); // the answer's deadline: nothing heard
    assert.deepEqual(events.at(-1), ["status", "closed", 1006]);
    assert.equal(socket.isOpen, false);
    timers.run(); // the back-off
    assert.equal(FakeSocket.made.length, 2);
    // The dead one's late words and close are not the new connection's.
    FakeSocket.made[0].answer({ type: "state" });
    FakeSocket.made[0].drop();
    assert.deepEqual(events.filter((e) => e[0] === "message"), []);
    assert.equal(events.filter((e) => e[1] === "closed").length, 1);
  });

  it("keeps a connection that answered", () => {
    const { socket, timers, events, clock } = live();
    socket.expectAnswer(5000);
    clock.now += 40;
    FakeSocket.made[0].answer({ type: "pong" });
    clock.now += 5000;
    timers.run();
    assert.equal(socket.isOpen, true);
    assert.deepEqual(events.filter((e) => e[1] === "closed"), []);
  });

  it("drops the connection when the browser goes offline and reconnects when it is back", () => {
    const { socket, events, win } = live();
    win.dispatchEvent(new Event("offline"));
    assert.deepEqual(events.at(-1), ["status", "closed", 1006]);
    assert.equal(FakeSocket.made.length, 1); // waits for the back-off, or for "online"
    win.dispatchEvent(new Event("online"));
    assert.equal(FakeSocket.made.length, 2); // at once
    FakeSocket.made[1].open();
    assert.equal(socket.isOpen, true);
    win.dispatchEvent(new Event("online")); // open already: nothing more
    assert.equal(FakeSocket.made.length, 2);
  });

  it("does not come back after a final close or its own close", () => {
    const { socket, win } = live();
    FakeSocket.made[0].drop(4401);
    win.dispatchEvent(new Event("online"));
    assert.equal(FakeSocket.made.length, 1);
    socket.close();
    win.dispatchEvent(new Event("offline"));
    win.dispatchEvent(new Event("online"));
    assert.equal(FakeSocket.made.length, 1);
  });
});
