import { describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { runCalls } from "./run-calls";

const setup = useFixtureServers();

describe("wait steps", () => {
  it("waits the rendered time, makes no request, and answers how long it waited", async () => {
    const waits: number[] = [];
    const outcome = await runCalls([call.parse({ name: "pause", wait: "return config.seconds * 1000" })], { config: { seconds: 90 } }, { ...setup.context(), sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([90_000]);
    expect(outcome.calls.pause).toEqual({ waitedMs: 90_000 });
  });

  it("refuses a wait longer than an hour, or one that is not a number", async () => {
    await expect(runCalls([call.parse({ name: "pause", wait: 3_600_001 })], {}, setup.context())).rejects.toThrow("call 'pause': a wait of 3600001 ms is longer than the 60 minutes allowed");
    await expect(runCalls([call.parse({ name: "pause", wait: "{{ config.nope }}" })], { config: {} }, setup.context())).rejects.toThrow(/wait must be a number of milliseconds/);
  });

  it("a cancelled run stops waiting at once", async () => {
    const controller = new AbortController();
    const pending = runCalls([call.parse({ name: "pause", wait: 600_000 })], {}, { evaluator: setup.evaluator(), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow("call 'pause' was cancelled while waiting");
  });
});
