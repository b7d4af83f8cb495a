// Clock arithmetic of the page (games/static/games/game/clocks.js): display only.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { TickPolicy, clockReadout, formatClock, formatDelay, secondsUntil } from "../../games/static/games/game/clocks.js";

const T0 = 1_700_000_000; // epoch seconds

function view({ running = 0, start = T0, bank = 120, banks = [120, 120] } = {}) {
  return {
    status: "playing",
    rules: { delay: 10 },
    clock: { running, decision_start: start, delay_end: start + 10, flag_at: start + 10 + bank },
    players: banks.map((b) => ({ bank: b })),
    deadline: (start + 10 + bank) * 1000,
  };
}

describe("clockReadout", () => {
  it("runs the delay first, then the bank (R7.2, R7.4)", () => {
    const v = view();
    let [me, other] = clockReadout(v, (T0 + 3) * 1000);
    assert.equal(me.running, true);
    assert.equal(me.delay, 7000);
    assert.equal(me.bank, 120000);
    assert.equal(other.running, false);
    assert.equal(other.bank, 120000);
    [me] = clockReadout(v, (T0 + 13) * 1000); // decided in 13 s would cost 3 s
    assert.equal(me.delay, 0);
    assert.equal(me.bank, 117000);
  });

  it("warns on low bank and says when the clock is out (R7.6)", () => {
    const v = view({ bank: 15 });
    let [me] = clockReadout(v, (T0 + 12) * 1000);
    assert.equal(me.low, true);
    assert.equal(me.out, false);
    [me] = clockReadout(v, (T0 + 26) * 1000);
    assert.equal(me.bank, 0);
    assert.equal(me.out, true);
  });

  it("shows stopped clocks when nobody's runs (R7.7)", () => {
    const v = { status: "playing", rules: { delay: 7 }, clock: null, players: [{ bank: 100.5 }, { bank: 90 }] };
    const r = clockReadout(v, 0);
    assert.deepEqual(r.map((x) => [x.running, x.bank]), [[false, 100500], [false, 90000]]);
    // The whole delay ahead of a stopped clock is the view's rule, not a number of the page.
    assert.deepEqual(r.map((x) => x.delay), [7000, 7000]);
  });
});

describe("formatting", () => {
  it("formats bank and delay", () => {
    assert.equal(formatClock(120000), "2:00");
    assert.equal(formatClock(61001), "1:02");
    assert.equal(formatClock(9340), "9.3");
    assert.equal(formatClock(-5), "0.0");
    assert.equal(formatDelay(10000), "10.0");
    assert.equal(secondsUntil(T0 + 30, (T0 + 0.5) * 1000), 30);
    assert.equal(secondsUntil(null, 0), null);
  });
});

describe("TickPolicy", () => {
  it("ticks at zero, then every second until a new state (docs/architecture.md, The clock)", () => {
    const v = view({ bank: 0 });
    const p = new TickPolicy(1000);
    const zero = (T0 + 10) * 1000;
    assert.equal(p.shouldTick(v, zero - 1, 0), false);
    assert.equal(p.shouldTick(v, zero, 100), true);
    assert.equal(p.shouldTick(v, zero + 500, 600), false);
    assert.equal(p.shouldTick(v, zero + 1000, 1100), true);
    p.reset();
    assert.equal(p.shouldTick(v, zero + 1100, 1200), true);
    assert.equal(p.shouldTick({ ...v, status: "finished" }, zero + 9000, 9000), false);
    assert.equal(p.shouldTick({ ...v, deadline: null }, zero + 9000, 19000), false);
  });
});
