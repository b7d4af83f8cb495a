// What the hand and the auction offer comes from `legal` only.
import "./i18n-stub.mjs";

import assert from "node:assert/strict";
import { describe, it } from "node:test";

const { playableTiles } = await import("../../games/static/games/game/hand.js");
const { auctionChoices } = await import("../../games/static/games/game/auction.js");

describe("playableTiles", () => {
  it("groups legal plays by tile with their ends", () => {
    const m = playableTiles([
      { do: "play", tile: "5-0", end: "left" },
      { do: "play", tile: "5-0", end: "right" },
      { do: "play", tile: "3-1", end: "up" },
      { do: "resign" },
    ]);
    assert.deepEqual([...m.keys()], ["5-0", "3-1"]);
    assert.deepEqual(m.get("5-0").ends, ["left", "right"]);
    assert.equal(m.get("3-1").actions.length, 1);
  });

  it("offers every tile for a lead and nothing when drawing", () => {
    assert.equal(playableTiles([{ do: "lead", tile: "6-6" }]).get("6-6").kind, "lead");
    assert.equal(playableTiles([{ do: "draw" }, { do: "resign" }]).size, 0);
  });
});

describe("auctionChoices", () => {
  it("reads renounce/bid and accept/raise with the affordable amounts only", () => {
    assert.deepEqual(auctionChoices([{ do: "renounce" }, { do: "bid", amount: 20 }, { do: "bid", amount: 15 }, { do: "resign" }]), {
      renounce: true,
      accept: false,
      kind: "bid",
      amounts: [15, 20],
    });
    const facing = auctionChoices([{ do: "accept" }, { do: "resign" }]);
    assert.equal(facing.accept, true);
    assert.deepEqual(facing.amounts, []);
  });
});

describe("groupPayments", () => {
  it("sums a round's payments per payer, payee and reason", async () => {
    const { groupPayments } = await import("../../games/static/games/game/summary.js");
    const g = groupPayments([
      { payer: 1, payee: 0, points: 10, why: "score" },
      { payer: 0, payee: 1, points: 10, why: "score" },
      { payer: 1, payee: 0, points: 15, why: "score" },
      { payer: 1, payee: 0, points: 5, why: "auction" },
    ]);
    assert.deepEqual(g.map((p) => [p.payer, p.payee, p.points, p.why]), [
      [1, 0, 25, "score"],
      [0, 1, 10, "score"],
      [1, 0, 5, "auction"],
    ]);
  });
});
