import { describe, expect, it } from "vitest";
import { call, eventsManifest } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { runStep } from "./run-step";

const setup = useFixtureServers();

describe("the run root", () => {
  it("a step's calls and outputs read the run, workflow and node ids", async () => {
    const server = await setup.fixture([{ path: "/log", body: { ok: true } }]);
    const run = { id: "run-7", workflowId: "wf-2", nodeId: "fetch", startedBy: "ada@example.com" };
    const result = await runStep(
      { run: [call.parse({ name: "log", url: `${server.url}/log`, query: { run: "{{ run.id }}", node: "return run.nodeId" } })], events: eventsManifest.parse([{ emit: "where", from: "response", value: "return run.workflowId + '/' + run.nodeId + ' by ' + run.startedBy" }]) },
      { config: {}, inputs: {}, run },
      setup.context(),
    );
    expect(setup.requests()[0].query).toEqual({ run: "run-7", node: "fetch" });
    expect(result).toEqual({ ok: true, outputs: { where: "wf-2/fetch by ada@example.com" } });
  });
});
