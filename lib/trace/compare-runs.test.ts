import { describe, expect, it } from "vitest";
import { compareRuns } from "./compare-runs";
import { recordedTrace, runRecord } from "../../testing/trace/traces.fixture";

const traces = new Map([["r1", recordedTrace(runRecord("r1"), [], [])], ["r2", recordedTrace(runRecord("r2"), [], [])]]);
const read = async (id: string) => traces.get(id) ?? null;

describe("compareRuns", () => {
  it("diffs two recorded runs", async () => {
    const outcome = await compareRuns("r1", " r2 ", read);
    expect(outcome.ok && [outcome.diff.a.run.id, outcome.diff.b.run.id]).toEqual(["r1", "r2"]);
  });

  it("refuses a missing id, the same run twice and an unknown run, naming the side", async () => {
    expect(await compareRuns("", "r2", read)).toEqual({ ok: false, problem: { code: "run-id-missing", field: "a", message: "Name the first run to compare (a=RUN_ID)." } });
    expect(await compareRuns("r1", undefined, read)).toMatchObject({ ok: false, problem: { code: "run-id-missing", field: "b" } });
    expect(await compareRuns("r1", "r1", read)).toEqual({ ok: false, problem: { code: "same-run", field: "b", message: 'Both sides are run "r1": choose another run to compare it with.' } });
    expect(await compareRuns("nope", "r2", read)).toEqual({ ok: false, problem: { code: "run-not-found", field: "a", message: 'There is no run "nope".' } });
    expect(await compareRuns("r1", "gone", read)).toMatchObject({ ok: false, problem: { code: "run-not-found", field: "b" } });
  });
});
