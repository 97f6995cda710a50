import { describe, expect, it } from "vitest";
import { type ChatHistoryTurn, historyMessages, historyWindowOf } from "./chat-history";

const turns: ChatHistoryTurn[] = [
  { user: "first question", assistant: "first answer" },
  { user: "second question", assistant: "" },
  { user: "third question", assistant: "third answer" },
];

describe("historyMessages", () => {
  it("gives every turn as user and assistant messages, oldest first, leaving out empty answers", () => {
    expect(historyMessages(turns, { turns: 10, tokens: 0 })).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second question" },
      { role: "user", content: "third question" },
      { role: "assistant", content: "third answer" },
    ]);
  });

  it("keeps only the last N turns", () => {
    expect(historyMessages(turns, { turns: 1, tokens: 0 }).map((message) => message.content)).toEqual(["third question", "third answer"]);
    expect(historyMessages(turns, { turns: 0, tokens: 0 })).toEqual([]);
  });

  it("keeps the latest whole turns that fit in a token budget", () => {
    // "third question" (4 tokens) + "third answer" (3) = 7; with "second question" (4) it is 11.
    expect(historyMessages(turns, { turns: 10, tokens: 10 }).map((message) => message.content)).toEqual(["third question", "third answer"]);
    expect(historyMessages(turns, { turns: 10, tokens: 11 }).map((message) => message.content)).toEqual(["second question", "third question", "third answer"]);
    expect(historyMessages(turns, { turns: 10, tokens: 6 })).toEqual([]);
  });
});

describe("historyWindowOf", () => {
  it("reads historyTurns and historyTokens, keeping the default for values that are not whole numbers", () => {
    expect(historyWindowOf({})).toEqual({ turns: 10, tokens: 0 });
    expect(historyWindowOf({ historyTurns: 3, historyTokens: 500 })).toEqual({ turns: 3, tokens: 500 });
    expect(historyWindowOf({ historyTurns: -1, historyTokens: 1.5 })).toEqual({ turns: 10, tokens: 0 });
  });
});
