// The game-over wording (games/static/games/game/summary.js).
import "./i18n-stub.mjs";

import assert from "node:assert/strict";
import { describe, it } from "node:test";

const { overReason } = await import("../../games/static/games/game/summary.js");

const fmt = (text, values) => interpolate(text, values, true);

describe("game over", () => {
  it("says how the game was won, naming the loser", () => {
    const said = (reason) => fmt(overReason(reason), { p: "ana", other: "bob" });
    assert.equal(said("points"), "ana won: bob's balance ran out.");
    assert.equal(said("time"), "ana won: bob ran out of time.");
    assert.equal(said("resign"), "ana won: bob resigned.");
    assert.equal(said("something new"), "ana won.");
  });
});
