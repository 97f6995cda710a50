import { describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { CallFailure } from "./call-failure";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { pollVerdict } from "./poll-call";
import { runCalls } from "./run-calls";

const setup = useFixtureServers();

/** A clock the sleeps move forward: the deadline is tested without waiting. */
function fakeClock() {
  let now = 1_000_000;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

describe("poll (fixture server)", () => {
  it("starts a job, then polls the job's own URL (from the first reply) until it is done", async () => {
    const server = await setup.fixture([
      { method: "POST", path: "/runs", body: { id: "r1", status: "RUNNING" } },
      { path: "/runs/r1", body: { id: "r1", status: "RUNNING" } },
      { path: "/runs/r1", body: { id: "r1", status: "SUCCEEDED", result: 42 } },
    ]);
    const list = [call.parse({ name: "job", method: "POST", url: `${server.url}/runs`, body: {}, poll: { until: "return response.status === 'SUCCEEDED'", url: `return '${server.url}/runs/' + response.id`, intervalMs: 1000 } })];
    const clock = fakeClock();
    const outcome = await runCalls(list, {}, { ...setup.context(), ...clock });
    expect(outcome.calls.job).toEqual({ id: "r1", status: "SUCCEEDED", result: 42 });
    expect(setup.requests().map((request) => `${request.method} ${request.path}`)).toEqual(["POST /runs", "GET /runs/r1", "GET /runs/r1"]);
  });

  it("stops at its deadline with a timeout that says so", async () => {
    const server = await setup.fixture([{ path: "/job", body: { status: "pending" } }]);
    const list = [call.parse({ name: "job", url: `${server.url}/job`, poll: { until: "return response.status === 'done'", intervalMs: 1000, deadlineMs: 5000 } })];
    const clock = fakeClock();
    const failure = await runCalls(list, {}, { ...setup.context(), ...clock }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CallFailure);
    expect((failure as CallFailure).code).toBe("timeout");
    expect((failure as CallFailure).message).toContain("within its deadline of 5000 ms");
    expect(setup.requests()).toHaveLength(6); // the first request, then a poll each second up to the 5 s deadline
  });

  it("fails with the manifest's message when `failed` holds, and stops after maxAttempts", async () => {
    const server = await setup.fixture([{ path: "/a", body: { status: "failed", error: "bad input" } }, { path: "/b", body: { status: "pending" } }]);
    const failedCall = call.parse({ name: "a", url: `${server.url}/a`, poll: { until: "return response.status === 'done'", failed: "return response.status === 'failed'", message: "return 'job ended: ' + response.error" } });
    await expect(runCalls([failedCall], {}, { ...setup.context(), ...fakeClock() })).rejects.toThrow("job ended: bad input");
    const patient = call.parse({ name: "b", url: `${server.url}/b`, poll: { until: "return false", maxAttempts: 2 } });
    await expect(runCalls([patient], {}, { ...setup.context(), ...fakeClock() })).rejects.toThrow("not done after 2 polls");
  });

  it("pollVerdict: a failure wins over done; attempts and the deadline end the loop", () => {
    const base = { done: false, failed: false, attempts: 0, elapsedMs: 0, intervalMs: 1000, deadlineMs: 10_000 };
    expect(pollVerdict({ ...base, done: true, failed: true })).toBe("failed");
    expect(pollVerdict({ ...base, done: true })).toBe("done");
    expect(pollVerdict({ ...base, attempts: 3, maxAttempts: 3 })).toBe("out-of-attempts");
    expect(pollVerdict({ ...base, elapsedMs: 9500 })).toBe("past-deadline");
    expect(pollVerdict(base)).toBe("again");
  });
});
