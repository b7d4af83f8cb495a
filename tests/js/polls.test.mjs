// "Play now"'s status polls against the pushes of a change (lobby/static/lobby/polls.js): an
// answer read before another tab's "left" must never put the page back to waiting.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { PollOrder } from "../../lobby/static/lobby/polls.js";

describe("PollOrder", () => {
  it("drops the answer to a poll sent before a change, and keeps the later ones", () => {
    const order = new PollOrder();
    const first = order.next();
    const second = order.next();
    order.changed(); // another tab left: pushed while both polls were on their way
    const third = order.next();
    assert.equal(order.stale({ type: "queue", id: first, in_queue: true }), true);
    assert.equal(order.stale({ type: "queue", id: second, in_queue: true }), true);
    assert.equal(order.stale({ type: "queue", id: third, in_queue: false }), false);
  });

  it("never drops a push, a join or leave answer, or a poll with no change since", () => {
    const order = new PollOrder();
    const id = order.next();
    assert.equal(order.stale({ type: "queue", id }), false);
    order.changed();
    assert.equal(order.stale({ type: "queue", change: "left" }), false);
    assert.equal(order.stale({ type: "queue", id: "k3x-lq-4" }), false);
    assert.equal(order.stale({ type: "queue", id: null }), false);
  });
});
