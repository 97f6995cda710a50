import { afterEach, beforeAll } from "vitest";
import { sharedSandbox, type Evaluator } from "../../lib/sandbox";
import { type FixtureReply, type FixtureServer, startFixtureServer } from "../../lib/calls/fixture-server";
import type { CallContext } from "../../lib/calls/execute-call";

/**
 * Test setup shared by the call executor's tests: the sandbox, one fixture
 * server per test (closed after it), and a context that may reach that server (its origin listed)
 * and does not wait between retries.
 */
export function useFixtureServers() {
  let evaluator: Evaluator;
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    evaluator = await sharedSandbox();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    evaluator: () => evaluator,
    /** The requests the current test's fixture server received (none before it started). */
    requests: () => server?.requests ?? [],
    async fixture(replies: Array<Partial<FixtureReply> & { path: string }>): Promise<FixtureServer> {
      server = await startFixtureServer(replies.map((reply) => ({ method: "GET", status: 200, headers: {}, ...reply })));
      return server;
    },
    context: (): CallContext => ({ evaluator, allowedOrigins: server ? [new URL(server.url).origin] : [], sleep: async () => {} }),
  };
}
