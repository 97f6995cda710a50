import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "./sandbox";
import { SandboxError } from "./sandbox-error";
import { SnippetPool } from "./snippet-pool";

/**
 * Issue 10's attack: QuickJS checks its time limit between bytecodes, so one
 * long built-in call ran past 150 s on the app's thread and froze every
 * request. Snippets now run in worker threads that are terminated at their
 * limit. Concurrency is shown by the order of events, never by how long
 * anything took.
 */
/** Long enough that, on a loaded machine, the other work is surely answered inside it; the order is what is asserted. */
const hostileLimitMs = 10_000;
let pool: SnippetPool;
let hostile: Sandbox;
let patient: Sandbox;
beforeAll(async () => {
  pool = new SnippetPool({ size: 2 });
  await pool.warm({ every: true });
  hostile = await createSandbox({ timeoutMs: hostileLimitMs, pool });
  patient = await createSandbox({ timeoutMs: 60_000, pool });
}, 120_000);
afterAll(async () => {
  await pool.close();
});

/** Records when a promise settles, by name, in the order things happen; keeps a SandboxError for a look at its message. */
function track(events: string[], name: string, promise: Promise<unknown>, errors: SandboxError[] = []): Promise<void> {
  return promise.then(
    () => void events.push(`${name} answered`),
    (error: unknown) => {
      if (error instanceof SandboxError) errors.push(error);
      events.push(`${name} ${error instanceof SandboxError ? `cut (${error.code})` : "failed"}`);
    },
  );
}

describe("a snippet that never yields is cut at its limit while others are answered", () => {
  it.each(["return new Array(2**32-1).indexOf(1)", "while (true) {}"])(
    "%s",
    async (source) => {
      const server = createServer((_request, response) => response.end("pong"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const events: string[] = [];
      const errors: SandboxError[] = [];
      const stuck = track(events, "hostile", hostile.evaluate(source, {}), errors);
      try {
        // Meanwhile: an HTTP request on the app's own thread, and another snippet in the pool's other worker.
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        await Promise.all([
          track(events, "request", fetch(url).then((response) => response.text())),
          track(events, "snippet", patient.evaluate("return params.n * 2", { params: { n: 21 } })),
        ]);
        events.push("both answered");
      } finally {
        server.close();
      }
      await stuck;
      expect(events.slice(2)).toEqual(["both answered", "hostile cut (timeout)"]);
      expect(events.slice(0, 2).sort()).toEqual(["request answered", "snippet answered"]);
      expect(errors[0].message).toMatch(new RegExp(`time limit of ${hostileLimitMs} ms`));
      // The killed worker was replaced: the pool answers again, on both workers.
      expect(await Promise.all([patient.evaluate("return 1", {}), patient.evaluate("return 2", {})])).toEqual([1, 2]);
    },
    120_000,
  );

  it("a pool of one queues the next snippet behind the stuck one, and runs it once the worker is replaced", async () => {
    const single = new SnippetPool({ size: 1 });
    try {
      const shortLived = await createSandbox({ timeoutMs: 500, pool: single });
      const waiting = await createSandbox({ timeoutMs: 60_000, pool: single });
      const events: string[] = [];
      const stuck = track(events, "hostile", shortLived.evaluate("return new Array(2**32-1).indexOf(1)", {}));
      const next = track(events, "next", waiting.evaluate("return 'after'", {}));
      await Promise.all([stuck, next]);
      expect(events).toEqual(["hostile cut (timeout)", "next answered"]);
      expect(single.replaced).toBe(1);
    } finally {
      await single.close();
    }
  }, 120_000);
});
