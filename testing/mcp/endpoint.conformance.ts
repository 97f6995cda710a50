import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointUrl, routeFetch, token } from "./workflow-endpoint-route.fixture";
import { hostAllowed } from "../../lib/security/host-allowlist";
import { listScenarios, readAllResults, runConformance, summary, withMissing } from "../../lib/mcp/conformance/conformance-suite";
import { clientNotApplicable, serverNotApplicable } from "../../lib/mcp/conformance/not-applicable";

// The suite's server scenarios against the app's own MCP route (a temporary database holding the "Unit desk" workflow).
let listener: http.Server;
let url: string;

beforeAll(async () => {
  // The suite sends no Authorization header: this front door adds the endpoint's token, as a host configured with it would.
  listener = http.createServer(async (incoming, outgoing) => {
    // The app's own front check (proxy.ts): only the host names it is reached by.
    if (!hostAllowed(incoming.headers.host ?? null)) {
      outgoing.writeHead(421, { "Content-Type": "text/plain" }).end("This Switchboard does not answer under this host name.\n");
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers(incoming.headers as Record<string, string>);
    headers.set("authorization", `Bearer ${token}`);
    const response = await routeFetch(new URL(endpointUrl).pathname.replace(/^/, `http://${incoming.headers.host}`), {
      method: incoming.method,
      headers,
      body: incoming.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => listener.listen(Number(process.env.CONFORMANCE_PORT ?? 3353), "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}${new URL(endpointUrl).pathname}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

describe("MCP conformance: server scenarios against the workflow endpoint", () => {
  it("passes every scenario that applies to a workflow endpoint", async () => {
    // Not checked against the listing: the suite's default ("active") leaves its pending scenarios out. A scenario it started and did not finish counts as failed.
    const results = await runConformance(["server", "--url", url], { outputDir: "node_modules/.cache/conformance/server", timeoutMs: 240_000 });
    for (const result of results) if (!result.passed && !serverNotApplicable.has(result.scenario)) console.log(`FAIL ${result.scenario}: ${result.failures.join(" | ")}`);
    console.log(summary("server", results, serverNotApplicable));
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((result) => !result.passed && !serverNotApplicable.has(result.scenario))).toEqual([]);
  }, 300_000);
});

describe("MCP conformance: client scenarios against Switchboard's client", () => {
  it("passes every client scenario that applies", async () => {
    // The client as a bundle (scripts/cli-bundle.mjs, built here if its sources changed): 26 processes start without transpiling.
    await promisify(execFile)(process.execPath, [path.resolve("scripts/cli-bundle.mjs")]);
    const command = `${process.execPath} ${path.resolve("scripts/cli.mjs")} mcp-conformance-client`;
    const outputDir = "node_modules/.cache/conformance/client";
    await rm(outputDir, { recursive: true, force: true });
    // Three scenarios at a time: all at once, 26 client processes start together on 2 cores and time out.
    const listed = listScenarios("client");
    const runAll = async (scenarios: string[]) => {
      const queue = [...scenarios];
      const worker = async () => {
        for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
          await runConformance(["client", "--command", command, "--scenario", scenario, "--timeout", "30000"], { outputDir, timeoutMs: 60_000, keep: true });
        }
      };
      await Promise.all([worker(), worker(), worker()]);
    };
    await runAll(listed);
    // A scenario with no result ran out of time on a loaded machine: once more, one at a time, then it counts as failed.
    const unfinished = withMissing(listed, await readAllResults(outputDir)).filter((result) => result.unfinished);
    for (const { scenario, directory } of unfinished) {
      if (directory) await rm(directory, { recursive: true, force: true });
      await runConformance(["client", "--command", command, "--scenario", scenario, "--timeout", "30000"], { outputDir, timeoutMs: 90_000, keep: true });
    }
    const results = withMissing(listed, await readAllResults(outputDir));
    for (const result of results) if (!result.passed && !clientNotApplicable.has(result.scenario)) console.log(`FAIL ${result.scenario}: ${result.failures.join(" | ")}`);
    console.log(summary("client", results, clientNotApplicable));
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((result) => !result.passed && !clientNotApplicable.has(result.scenario))).toEqual([]);
  }, 600_000);
});
