import { expect } from "vitest";
import { ServerEntryError } from "../../lib/mcp/registry/entry-problem";

/**
 * TEST SUPPORT: the ServerEntryError a registry call was refused with;
 * the test fails when the call succeeds or throws anything else.
 *
 * @example
 * const error = await refusal(registry.save({ ...entry, command: "bash" }));
 * expect(error.field).toBe("command");
 */
export async function refusal(promise: Promise<unknown>): Promise<ServerEntryError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServerEntryError);
  return error as ServerEntryError;
}
