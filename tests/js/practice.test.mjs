// A practice game's hint (games/static/games/practice.js): the view's own legal actions,
// previews and auction costs in words. The views below are the engine's (pages/howto.py's
// example game: Leo's first turn, the auction's two decisions, and a turn with no tile).
import "./i18n-stub.mjs";

import assert from "node:assert/strict";
import { describe, it } from "node:test";

const { hintFor } = await import("../../games/static/games/practice.js");

const mine = { status: "playing", seat: 1, to_act: 1, awaiting_reveal: false };

describe("practice hint", () => {
  it("names the best placement once, with its end, to be lit on the table", () => {
    const legal = [];
    const play_preview = {};
    for (const [tile, count] of [["6-0", 12], ["6-1", 13], ["6-3", 15], ["6-5", 17]]) {
      for (const end of ["left", "right"]) {
        legal.push({ do: "play", tile, end });
        play_preview[`${tile}:${end}`] = { count, points: count % 5 ? 0 : count };
      }
    }
    // A tile that scores at one end only is never also said to score nothing.
    legal.push({ do: "play", tile: "2-2", end: "left" }, { do: "play", tile: "2-2", end: "right" });
    play_preview["2-2:left"] = { count: 20, points: 20 };
    play_preview["2-2:right"] = { count: 11, points: 0 };
    legal.push({ do: "resign" });
    const hint = hintFor({ ...mine, phase: "play", legal, play_preview });
    assert.deepEqual(hint, {
      kind: "play",
      text: "Best: [2|2] on the left scores 20 (lit on the table).",
      tile: "2-2",
      end: "left",
    });
  });

  it("says when nothing scores, and a lead has no end", () => {
    const legal = [{ do: "lead", tile: "2-0" }, { do: "lead", tile: "5-5" }];
    const play_preview = { "2-0:lead": { count: 2, points: 0 }, "5-5:lead": { count: 10, points: 10 } };
    const lead = hintFor({ ...mine, phase: "lead", legal, play_preview });
    assert.equal(lead.text, "Best: [5|5] scores 10 (lit in your hand).");
    assert.equal(lead.tile, "5-5");
    assert.equal(lead.end, null);
    const none = { "2-0:lead": { count: 2, points: 0 } };
    const nothing = hintFor({ ...mine, phase: "lead", legal: legal.slice(0, 1), play_preview: none });
    assert.equal(nothing.text, "No tile scores now: any tile that fits will do.");
    assert.equal(nothing.tile, null);
  });

  it("gives the auction's costs as the server computed them", () => {
    const rival = {
      ...mine,
      phase: "auction",
      legal: [{ do: "renounce" }, { do: "bid", amount: 15 }, { do: "bid", amount: 20 }],
      auction: { min_bid: 15, max_bid: 20, net_cost: { 15: 15, 20: 20 }, accept_cost: null },
    };
    assert.equal(
      hintFor(rival).text,
      "Renounce: the jockey leads for free. Or bid 15 to 20: accepted, a bid of 15 costs you 15 and you lead.",
    );
    const jockey = {
      ...mine,
      phase: "auction",
      legal: [{ do: "accept" }, { do: "raise", amount: 20 }, { do: "raise", amount: 25 }],
      auction: { min_bid: 20, max_bid: 25, net_cost: { 20: 5, 25: 10 }, accept_cost: 15 },
    };
    assert.equal(
      hintFor(jockey).text,
      "Accept: your opponent pays you 15 and leads. Or raise to 20 to 25: accepted, 20 costs you 5 and you lead.",
    );
  });

  it("tells a player who cannot play to draw, naming the open ends", () => {
    const view = {
      ...mine,
      phase: "play",
      legal: [{ do: "draw" }, { do: "resign" }],
      board: { ends: [{ end: "left", value: 2 }, { end: "right", value: 3 }, { end: "up", value: 6 }, { end: "down", value: 6 }] },
    };
    assert.deepEqual(hintFor(view), { kind: "draw", text: "None of your tiles matches an open end (2, 3, 6): draw." });
  });

  it("says nothing when it is not the player's decision", () => {
    assert.equal(hintFor({ ...mine, to_act: 0, phase: "play", legal: [{ do: "resign" }] }).text, null);
    assert.equal(hintFor({ ...mine, status: "finished", phase: "finished" }).text, null);
  });
});
