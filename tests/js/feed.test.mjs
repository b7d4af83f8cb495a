// Event sentences and transfers (games/static/games/game/feed.js).
import "./i18n-stub.mjs";

import assert from "node:assert/strict";
import { describe, it } from "node:test";

const { describe: sentence, sentences, transfersOf, paymentText } = await import("../../games/static/games/game/feed.js");

const names = ["ana", "bob"];

describe("feed", () => {
  it("says what the opponent did, without hidden tiles", () => {
    assert.equal(sentence({ type: "draw", player: 1, tile: null }, names), "bob drew a tile");
    assert.equal(sentence({ type: "draw", player: 0, tile: "3-2" }, names), "ana drew [3|2]");
    assert.equal(sentence({ type: "bid", player: 0, amount: 15 }, names), "ana bids 15");
    assert.equal(sentence({ type: "t_unknown" }, names), null);
    assert.equal(
      sentence({ type: "void", reason: "service_fault" }, names),
      "The game was cancelled: a service fault, no result (R7.10)",
    );
  });

  it("joins a placement and its score in one line", () => {
    const lines = sentences(
      [
        { type: "play", player: 1, tile: "6-4", end: "right" },
        { type: "score", player: 1, count: 15, points: 15 },
        { type: "play", player: 0, tile: "4-1", end: "left" },
      ],
      names,
    );
    assert.deepEqual(lines.map((l) => l.text), [
      "bob played [6|4] on the right: 15 points",
      "ana played [4|1] on the left",
    ]);
  });

  it("derives transfers from score, block and accept (server figures only)", () => {
    const t = transfersOf([
      { type: "score", player: 0, count: 20, points: 5 },
      { type: "block", player: 1, totals: [18, 4], points: 20 },
      { type: "block", player: null, totals: [6, 6], points: 0 },
      { type: "accept", player: 0, payer: 1, amount: 5, bid: 20 },
      { type: "score", player: 1, count: 0, points: 0 },
    ]);
    assert.deepEqual(
      t.map((x) => [x.payer, x.payee, x.points, x.label]),
      [
        [1, 0, 5, "scored 5"],
        [0, 1, 20, "block: 20"],
        [1, 0, 5, "auction: 5"],
      ],
    );
  });

  it("explains payments of a round", () => {
    assert.equal(paymentText({ payer: 1, payee: 0, points: 20, why: "block" }, names), "bob paid ana 20 for the block");
  });
});
