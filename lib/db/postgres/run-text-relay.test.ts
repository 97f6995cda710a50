import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endRunText, followRunText, publishRunText, type RunTextPiece } from "../../run-model";
import { createTestPostgres, type TestPostgres } from "./test-postgres";
import { relayedTextLength, runTextChannel, startRunTextRelay, type RunTextRelayHandle } from "./run-text-relay";

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);

describe.skipIf(!postgres)("the run-text relay on Postgres", () => {
  let relay: RunTextRelayHandle;
  // Another process's side of the channel, spoken raw.
  let other: pg.Client;
  const heard: string[] = [];

  beforeAll(async () => {
    relay = startRunTextRelay(postgres!.url);
    await relay.ready;
    other = new pg.Client({ connectionString: postgres!.url });
    await other.connect();
    other.on("notification", (message) => heard.push(message.payload ?? ""));
    await other.query(`LISTEN ${runTextChannel}`);
  });
  afterAll(async () => {
    await other?.end();
    await relay?.close();
    await postgres?.dispose();
  });

  const until = async (check: () => boolean) => {
    for (let tries = 0; !check(); tries++) {
      if (tries > 200) throw new Error("not heard in time");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("sends a long piece in parts Postgres takes, at their offsets, never splitting a character", async () => {
    heard.length = 0;
    // Characters JSON writes long (a line separator: six bytes) and one of two UTF-16 halves across the first cut.
    const text = `${"\u2028".repeat(relayedTextLength - 1)}😀${"words ".repeat(400)}`;
    publishRunText({ runId: "r-long", nodeId: "agent", turnKey: "agent#1/t1", text, offset: 5 });
    await relay.drained();
    const textOf = (payload: string) => (JSON.parse(payload) as { piece: RunTextPiece }).piece.text;
    await until(() => heard.map(textOf).join("").length === text.length);
    endRunText("r-long");
    for (const payload of heard) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    const parts = heard.map((payload) => (JSON.parse(payload) as { piece: RunTextPiece }).piece);
    let offset = 5;
    for (const part of parts) {
      expect(part.offset).toBe(offset);
      offset += part.text.length;
    }
    expect(parts.map((part) => part.text).join("")).toBe(text);
    expect(parts[0]!.text.endsWith("\u2028")).toBe(true);
    expect(parts[1]!.text.startsWith("😀")).toBe(true);
  });

  it("hands another process's pieces to followers here, and tells the others when a run is followed here", async () => {
    heard.length = 0;
    const pieces: RunTextPiece[] = [];
    const stop = followRunText("r-elsewhere", (piece) => pieces.push(piece));
    await until(() => heard.some((payload) => (JSON.parse(payload) as { follow?: string }).follow === "r-elsewhere"));
    const piece: RunTextPiece = { runId: "r-elsewhere", nodeId: "agent", turnKey: "agent#1/t1", text: "Hello", offset: 0 };
    await other.query(`SELECT pg_notify($1, $2)`, [runTextChannel, "not json"]);
    await other.query(`SELECT pg_notify($1, $2)`, [runTextChannel, JSON.stringify({ from: "another process", piece: { ...piece, offset: -1 } })]);
    await other.query(`SELECT pg_notify($1, $2)`, [runTextChannel, JSON.stringify({ from: "another process", piece })]);
    await until(() => pieces.length > 0);
    stop();
    // What is not shaped as a piece (not JSON, a negative offset) is dropped: only the real piece arrived.
    expect(pieces).toEqual([piece]);
  });
});
