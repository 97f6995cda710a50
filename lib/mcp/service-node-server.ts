import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { invokeMethod } from "../calls";
import { checkArguments } from "../manifest";
import type { WiredServiceNode } from "../engine";
import { approvalMetaKey, readCallerMeta } from "./caller-meta";

/** A service node as the engine wires it to an agent (the port lib/engine declares). */
export type ServiceNodeServerOptions = WiredServiceNode;

/**
 * A service node as a real MCP server: its methods are the tools, each
 * call's arguments are checked against the method's `inputs`, the calls are
 * made by the executor and `returns` runs in the sandbox. A method that ran
 * and failed answers `isError: true`; an unknown tool or arguments that fail
 * the schema are protocol errors. Every call writes one trace row, here on
 * the tool side, whoever called.
 */
export function createServiceNodeServer(options: ServiceNodeServerOptions): Server {
  const { manifest } = options;
  const connector = manifest.interface.serviceConnectors.find((candidate) => candidate.name === options.connector && candidate.isService);
  if (!connector) throw new Error(`node ${options.nodeId} has no offering connector '${options.connector}'`);
  const methods = connector.methods.filter((name) => manifest.service && Object.hasOwn(manifest.service, name));
  const server = new Server(
    { name: `${manifest.interface.name}:${options.nodeId}`, title: manifest.interface.title, version: "1.0.0" },
    { capabilities: { tools: {} }, instructions: connector.instructions },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: methods.map((name): Tool => {
      const method = manifest.service![name];
      return {
        name,
        description: method.description,
        inputSchema: method.inputs as Tool["inputSchema"],
        ...(method.outputSchema ? { outputSchema: method.outputSchema as Tool["outputSchema"] } : {}),
        ...annotationsOf(method),
        ...(method.approval === undefined ? {} : { _meta: { [approvalMetaKey]: method.approval } }),
      };
    }),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const started = new Date();
    const caller = readCallerMeta(request.params._meta);
    const hostName = server.getClientVersion()?.name ?? "unknown";
    const write = async (result: unknown, error: string | null, isError: boolean, tainted: boolean) => {
      await options.recordCall({
        id: caller?.rowId ?? randomUUID(),
        runId: options.runId,
        nodeRunId: caller?.nodeRunId ?? null,
        tool: request.params.name,
        server: options.nodeId,
        caller: caller?.nodeId ?? `mcp-host:${hostName}`,
        arguments: request.params.arguments ?? {},
        result,
        error,
        isError,
        tainted,
        startedAt: started.toISOString(),
        durationMs: Date.now() - started.getTime(),
        inputTokens: caller?.usage?.inputTokens ?? null,
        outputTokens: caller?.usage?.outputTokens ?? null,
        ...(caller?.stepKey ? { stepKey: caller.stepKey } : {}),
      });
    };
    const name = request.params.name;
    if (!methods.includes(name)) {
      const message = `Unknown tool '${name}'; this server offers: ${methods.join(", ")}`;
      await write(null, message, true, false);
      throw new McpError(ErrorCode.InvalidParams, message);
    }
    const method = manifest.service![name];
    const checked = checkArguments(method.inputs, request.params.arguments ?? {});
    if (!checked.ok) {
      const message = `Invalid arguments for ${name}: ${checked.message}`;
      await write(null, message, true, false);
      throw new McpError(ErrorCode.InvalidParams, message);
    }
    const outcome = await invokeMethod(method, { params: checked.value, config: options.config, run: { id: options.runId, workflowId: options.workflowId ?? null, nodeId: options.nodeId, startedBy: null } }, { ...options.callContext, signal: extra.signal });
    // A method that reached out over HTTP brought in outside content: its result is tainted.
    const tainted = method.calls.length > 0;
    if (outcome.isError) {
      await write(null, outcome.message, true, tainted);
      return { content: [{ type: "text", text: outcome.message }], isError: true } satisfies CallToolResult;
    }
    const text = typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value ?? null);
    await write(outcome.value, null, false, tainted);
    return {
      content: [{ type: "text", text }],
      ...(outcome.structured ? { structuredContent: outcome.structured } : {}),
    } satisfies CallToolResult;
  });
  return server;
}

/**
 * A method's MCP hints: its `annotations`, with the method-level `readOnly` /
 * `idempotent` keys as readOnlyHint / idempotentHint (the hints the engine's
 * resume rules and approval policies read), unless the annotations say otherwise.
 */
function annotationsOf(method: { annotations?: Tool["annotations"]; readOnly?: boolean; idempotent?: boolean }): { annotations?: Tool["annotations"] } {
  const fromKeys = { ...(method.readOnly === undefined ? {} : { readOnlyHint: method.readOnly }), ...(method.idempotent === undefined ? {} : { idempotentHint: method.idempotent }) };
  const annotations = { ...fromKeys, ...method.annotations };
  return Object.keys(annotations).length > 0 ? { annotations } : {};
}
