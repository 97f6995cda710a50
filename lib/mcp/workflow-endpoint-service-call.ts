import { noRequestTimeout } from "./request-timeout";
import { randomUUID } from "node:crypto";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Credentials } from "../calls";
import { bindCredentials, credentialValuesFor, ungrantedCredentials, ungrantedMessage } from "../engine";
import type { BoundCredential } from "../security";
import { configValues } from "../manifest";
import { redactSecrets } from "../trace";
import { connectInMemory } from "./in-memory-connection";
import { createServiceNodeServer } from "./service-node-server";
import { outcomeOf } from "./tool-outcome";
import type { McpHost, OutsideCall, OutsideCallEnd, WorkflowEndpointOptions } from "./workflow-endpoint-types";
import { forwardedError } from "./workflow-endpoint-errors";
import type { ServiceOffering } from "./workflow-endpoint-tools";

export interface ServiceCallRequest {
  offering: ServiceOffering;
  args: Record<string, unknown>;
  host: McpHost;
  /** The host cancelled the request (notifications/cancelled) or went away. */
  signal: AbortSignal;
  traceParent?: OutsideCall["traceParent"];
}

/**
 * One outside call of a service node's method, as a Run of its own: the Run
 * is opened, the node is served by createServiceNodeServer for this call
 * (so its row lands in this run) and reached through an in-process client
 * named like the host (so the row's caller is `mcp-host:<name>`), the
 * result goes back to the host and the Run ends completed or failed. The
 * node's credentials are resolved for the call and redacted from the row,
 * the run and the answer. A protocol error (bad arguments) fails the run and
 * goes back to the host as the same protocol error.
 */
export async function callServiceOffering(request: ServiceCallRequest, options: Pick<WorkflowEndpointOptions, "env" | "openRun" | "workflowId">): Promise<CallToolResult> {
  const { offering, host } = request;
  const run = await options.openRun({ kind: "service", tool: offering.name, server: offering.node.id, arguments: request.args, host, traceParent: request.traceParent }).catch((error: unknown) => {
    throw forwardedError(error, `recording the call of ${offering.name}`);
  });
  const secrets: string[] = [];
  const redact = <T>(value: T): T => redactSecrets(value, secrets);
  const end = (outcome: OutsideCallEnd) => run.end(redact(outcome));
  try {
    const credentials = await resolveCredentials(offering, options.env, secrets);
    if (!credentials.ok) {
      await run.recordCall(refusedRow(run.runId, request, credentials.message));
      await end({ ok: false, error: credentials.message });
      return { content: [{ type: "text", text: credentials.message }], isError: true };
    }
    const server = createServiceNodeServer({
      nodeId: offering.node.id,
      manifest: offering.manifest,
      connector: offering.connector,
      config: configValues(offering.manifest.config, offering.node.config),
      callContext: { evaluator: options.env.evaluator, credentials: credentials.values, boundCredentials: credentials.bound, allowedOrigins: options.env.allowedPrivateOrigins },
      runId: run.runId,
      workflowId: options.workflowId,
      recordCall: (row) => run.recordCall(redact(row)),
    });
    const connection = await connectInMemory(server, host.name);
    try {
      const result = redact((await connection.client.callTool({ name: offering.method, arguments: request.args }, CallToolResultSchema, { signal: request.signal, timeout: noRequestTimeout })) as CallToolResult);
      const { output } = outcomeOf(result);
      await end(result.isError ? { ok: false, error: output } : { ok: true, result: result.structuredContent ?? output });
      return result;
    } finally {
      await connection.close();
    }
  } catch (error) {
    const forwarded = redact(forwardedError(error, `the call of ${offering.name}`));
    await end({ ok: false, error: forwarded.message });
    throw forwarded;
  }
}

type ResolvedCredentials = { ok: true; values: Credentials; bound: BoundCredential[] } | { ok: false; message: string };

/** The node's declared credentials for this call; each value joins the secrets to redact. A required one without a value refuses the call before anything is sent. */
async function resolveCredentials(offering: ServiceOffering, env: WorkflowEndpointOptions["env"], secrets: string[]): Promise<ResolvedCredentials> {
  const required = offering.manifest.interface.credentials;
  if (required.length === 0) return { ok: true, values: {}, bound: [] };
  const values = await credentialValuesFor(offering.manifest, env);
  for (const fields of Object.values(values)) for (const value of Object.values(fields)) if (value) secrets.push(value);
  const ungranted = ungrantedCredentials(offering.manifest, values, { env });
  if (ungranted.length) return { ok: false, message: ungrantedMessage(offering.manifest.interface.name, ungranted) };
  const missing = required.filter((credential) => credential.required && !Object.values(values[credential.name] ?? {}).some(Boolean));
  if (missing.length === 0) return { ok: true, values, bound: await bindCredentials(offering.manifest, values, env) };
  const names = missing.map((credential) => `'${credential.displayName}'`).join(", ");
  return { ok: false, message: `${offering.manifest.interface.title} needs the credential ${names}; add it on the Credentials page or in the server's environment` };
}

/** The row of a call refused before it reached the node (a missing credential): still exactly one row per call. */
function refusedRow(runId: string, request: ServiceCallRequest, message: string) {
  return {
    id: randomUUID(),
    runId,
    nodeRunId: null,
    tool: request.offering.method,
    server: request.offering.node.id,
    caller: `mcp-host:${request.host.name}`,
    arguments: request.args,
    result: null,
    error: message,
    isError: true,
    tainted: false,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    inputTokens: null,
    outputTokens: null,
  };
}
