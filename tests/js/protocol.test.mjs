// Socket helpers (games/static/games/game/protocol.js): offset estimation, clean actions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { OffsetEstimator, cleanAction, requestId, socketUrl } from "../../games/static/games/game/protocol.js";

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
  it("sends only the keys of an ACTION", () => {
    assert.deepEqual(cleanAction({ do: "play", tile: "6-4", end: "right", count: 15 }), {
      do: "play",
      tile: "6-4",
      end: "right",
    });
    assert.deepEqual(cleanAction({ do: "bid", amount: 20 }), { do: "bid", amount: 20 });
  });

  it("makes unique ids and socket URLs", () => {
    assert.notEqual(requestId(), requestId());
    assert.equal(socketUrl("/ws/games/3/", { protocol: "https:", host: "x.org" }), "wss://x.org/ws/games/3/");
    assert.equal(socketUrl("/ws/games/3/", { protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/ws/games/3/");
  });
});
