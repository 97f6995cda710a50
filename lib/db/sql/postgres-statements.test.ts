import pg from "pg";
import { describe, expect, it } from "vitest";
import { quoted } from "./postgres-statements";

describe("quoted", () => {
  it("writes every text as pg's escapeLiteral does: quotes doubled, backslashes in an E'' literal", () => {
    const texts = ["", "plain", "it's", "''", "a\\b", "\\'", "tab\there", '{"text":"say \\"hi\\"","n":1}', "ünïcødé ✓ 🚀", "'\\'\\\\'", "\n\r\0x"];
    for (const text of texts) expect(quoted(text), JSON.stringify(text)).toBe(pg.escapeLiteral(text));
  });
});
