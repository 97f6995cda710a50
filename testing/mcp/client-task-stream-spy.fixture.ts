import { ExperimentalClientTasks } from "@modelcontextprotocol/sdk/experimental/tasks";
import { vi } from "vitest";

/**
 * TEST SUPPORT: spies on the MCP client's task stream (callToolStream) and
 * returns the type of every message it yields, in order ("taskCreated",
 * "taskStatus"…, "result"); the stream itself goes on unchanged. Undo it
 * with vi.restoreAllMocks().
 */
export function spyOnClientTaskStream(): string[] {
  const clientSaw: string[] = [];
  const callToolStream = ExperimentalClientTasks.prototype.callToolStream;
  vi.spyOn(ExperimentalClientTasks.prototype, "callToolStream").mockImplementation(async function* (this: ExperimentalClientTasks, ...args: Parameters<typeof callToolStream>) {
    for await (const message of callToolStream.apply(this, args)) {
      clientSaw.push(message.type);
      yield message;
    }
  });
  return clientSaw;
}
