import { getEventListeners } from "node:events";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { callSignal } from "./call-signal";
import { agentToolsFromClient } from "./client-tools";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";

function echoServer(): McpServer {
  const server = new McpServer({ name: "echo", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  return server;
}

let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

describe("per-call abort signals", () => {
  it("10,000 calls on one run signal: the signal's listeners stay flat and Node never warns", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      connection = await connectInMemory(echoServer().server, "switchboard-test");
      const [echo] = await agentToolsFromClient(connection.client, "echo", { sendCaller: false });
      const run = new AbortController();
      const before = getEventListeners(run.signal, "abort").length;
      const counts: number[] = [];
      for (let index = 0; index < 10_000; index++) {
        const outcome = await echo.call({ text: `call ${index}` }, { callId: `c${index}`, nodeRunId: "n", callerNodeId: "agent", signal: run.signal });
        if (outcome.isError) throw new Error(outcome.output);
        if (index % 1_000 === 999) counts.push(getEventListeners(run.signal, "abort").length);
      }
      // Let any warning emitted on the last calls reach the listener.
      await new Promise((resolve) => setImmediate(resolve));
      expect(counts).toEqual(Array(10).fill(before));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  }, 120_000);

  it("a call's signal aborts with the run's and lets go of it when released", () => {
    const run = new AbortController();
    const call = callSignal(run.signal);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(1);
    call.release();
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
    const second = callSignal(run.signal);
    run.abort(new Error("cancelled"));
    expect(second.signal.aborted).toBe(true);
    expect(callSignal(run.signal).signal.aborted).toBe(true);
  });
});
