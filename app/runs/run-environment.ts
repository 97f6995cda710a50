import "server-only";
import { PrismaCredentialStore, prisma, storedCredentials } from "@/lib/db";
import { createLocalEnvironment, type EngineEnvironment } from "@/lib/engine";

/**
 * The engine's environment for runs started from the app: node types from
 * nodes/, and credentials from the encrypted credential store (falling back
 * to SWITCHBOARD_CREDENTIAL_* variables). Built per run, so an edited node
 * or a newly saved credential takes effect on the next run.
 */
export function appEnvironment(): Promise<EngineEnvironment> {
  return createLocalEnvironment({ overrides: { credentials: storedCredentials(new PrismaCredentialStore(prisma())) } });
}
