import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolRequest, type CallToolResult, CallToolResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/client";
import * as z from "zod/v4";
import type { ToolOutcome } from "../tools";
import { noRequestTimeout } from "./request-timeout";
import { callTaskTool } from "./task-call";
import { ClientTaskCalls, type RawTaskDispatch } from "./task-call-v2";
import type { QuestionAsker } from "../run-model/tool-question";
import type { SessionQuestions } from "./session-questions";

/** One page of tools/list as the server sent it: each tool is judged on its own (tool-manifest). */
export interface ToolPage {
  tools: unknown[];
  nextCursor?: string;
}

export interface SessionRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * A live MCP session with one server, whichever protocol revision it
 * speaks. Everything outside lib/mcp's connection code sees only this: the
 * era is a fact of the session (`protocolVersion`), never a branch above.
 */
export interface McpSession {
  /** The revision the session speaks (e.g. "2026-07-28", "2025-11-25"). */
  readonly protocolVersion: string | undefined;
  /** tools/list, checked by the SDK (its output schemas are then checked on calls). Throws on a malformed answer. */
  listTools(cursor: string | undefined, options: SessionRequestOptions): Promise<ToolPage>;
  /** tools/list with no checks: for a server whose list fails the SDK's check as a whole. */
  listToolsLoosely(cursor: string | undefined, options: SessionRequestOptions): Promise<ToolPage>;
  /** tools/call; `ask` answers the questions (elicitation) the server sends during the call, on a session that declared it can. */
  callTool(params: CallToolRequest["params"], signal?: AbortSignal, ask?: QuestionAsker): Promise<CallToolResult>;
  /** resources/read, as the server sent it (an MCP App's `ui://` resource is read this way, by the host). */
  readResource(uri: string, options: SessionRequestOptions): Promise<{ contents: unknown[] }>;
  /** A task-required tool, followed to its end; the signal cancels the task. */
  callTaskTool(params: CallToolRequest["params"], signal?: AbortSignal): Promise<ToolOutcome>;
  serverVersion(): { name: string; version: string } | undefined;
  instructions(): string | undefined;
  /** Called once when the transport closes under the session (a dead process, an ended session). */
  onClose(listener: () => void): void;
  /** Called when the server says its tool list changed. */
  onToolsChanged(listener: () => void): void;
  close(): Promise<void>;
}

const loosePage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** A session over the v2 SDK client (both eras: it negotiated one at connect). */
export function sessionOfClient(client: Client, options: { endpointId: string; rawDispatch?: RawTaskDispatch; clientInfo: { name: string; version: string }; questions?: SessionQuestions }): McpSession {
  const tasks = new ClientTaskCalls(client, options);
  const questions = options.questions;
  const closeListeners: Array<() => void> = [];
  const changeListeners: Array<() => void> = [];
  const previous = client.onclose;
  client.onclose = () => {
    previous?.();
    for (const listener of closeListeners.splice(0)) listener();
  };
  client.setNotificationHandler("notifications/tools/list_changed", () => {
    for (const listener of changeListeners) listener();
  });
  return {
    get protocolVersion() {
      return client.getNegotiatedProtocolVersion();
    },
    async listTools(cursor, request) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: request.timeoutMs, signal: request.signal });
      return { tools: result.tools, nextCursor: result.nextCursor };
    },
    async listToolsLoosely(cursor, request) {
      const result = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, loosePage, { timeout: request.timeoutMs, signal: request.signal });
      return { tools: result.tools, nextCursor: result.nextCursor };
    },
    callTool: (params, signal, ask) => {
      const call = () => client.callTool(params, { signal, timeout: noRequestTimeout }) as Promise<CallToolResult>;
      return questions ? questions.during(ask, call) : call();
    },
    async readResource(uri, request) {
      const result = await client.readResource({ uri }, { timeout: request.timeoutMs, signal: request.signal });
      return { contents: result.contents };
    },
    callTaskTool: (params, signal) => tasks.call(params, { signal: signal ?? new AbortController().signal }),
    serverVersion: () => normalVersion(client.getServerVersion()),
    instructions: () => client.getInstructions(),
    onClose: (listener) => void closeListeners.push(listener),
    onToolsChanged: (listener) => void changeListeners.push(listener),
    async close() {
      await tasks.close();
      await client.close();
    },
  };
}

/**
 * A session over the v1 SDK client: Switchboard's own in-process servers
 * (service nodes, Task Starts), reached over in-memory transports at
 * 2025-11-25, where the v1 SDK's task store still serves.
 */
export function sessionOfLegacyClient(client: LegacyClient, close: () => Promise<void> = () => client.close()): McpSession {
  const closeListeners: Array<() => void> = [];
  const previous = client.onclose;
  client.onclose = () => {
    previous?.();
    for (const listener of closeListeners.splice(0)) listener();
  };
  return {
    // In-memory sessions with our own servers: whatever the v1 SDK negotiated, a 2025-era revision.
    protocolVersion: undefined,
    async listTools(cursor, request) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: request.timeoutMs, signal: request.signal });
      return { tools: result.tools, nextCursor: result.nextCursor };
    },
    async listToolsLoosely(cursor, request) {
      const result = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, loosePage, { timeout: request.timeoutMs, signal: request.signal });
      return { tools: result.tools, nextCursor: result.nextCursor };
    },
    callTool: async (params, signal) => (await client.callTool(params, CallToolResultSchema, { signal, timeout: noRequestTimeout })) as CallToolResult,
    async readResource(uri, request) {
      const result = await client.readResource({ uri }, { timeout: request.timeoutMs, signal: request.signal });
      return { contents: result.contents };
    },
    callTaskTool: (params, signal) => callTaskTool(client, params, { signal }),
    serverVersion: () => normalVersion(client.getServerVersion()),
    instructions: () => client.getInstructions(),
    onClose: (listener) => void closeListeners.push(listener),
    onToolsChanged: (listener) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => listener()),
    close,
  };
}

function normalVersion(info: { name: string; version: string } | undefined) {
  return info ? { name: info.name, version: info.version } : undefined;
}
