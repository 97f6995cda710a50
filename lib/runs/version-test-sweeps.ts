import { prisma } from "../db/app";
import { databaseUrl } from "../db";
import { runService } from "./process-runs";
import { sweepInterruptedVersionTests } from "./version-tests";

/** How often the web process looks again for version tests left running (another host's, past their lease). */
const sweepEveryMs = 5 * 60_000;

/**
 * The web process's sweep of version tests a stopped process left running
 * (see sweepInterruptedVersionTests): once at start-up, then every five
 * minutes, one sweep at a time, never holding the process open. Started
 * once per process from instrumentation.ts.
 */
export function startVersionTestSweeps(log: (line: string) => void = (line) => console.log(line)): () => void {
  let sweeping: Promise<unknown> | null = null;
  const sweep = () => {
    sweeping ??= sweepInterruptedVersionTests(prisma(), { service: runService(), databaseUrl: databaseUrl(), log })
      .catch((error: unknown) => log(`tests: the sweep of interrupted version tests failed: ${(error as Error).message.split("\n")[0]}`))
      .finally(() => (sweeping = null));
  };
  sweep();
  const timer = setInterval(sweep, sweepEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
