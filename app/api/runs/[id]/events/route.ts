import { getRunTrace } from "@/lib/db/app";
import { apiError, authorizeApiCaller } from "@/lib/auth";
import { runAnswerOf } from "@/lib/api/run-api";
import { settledStatuses } from "@/lib/run-model";
import { runService } from "@/lib/runs";

/** How often the stream reads the run; any process may be running it, so the database is the source. */
const readEveryMs = 250;
/** A comment line this often keeps proxies from closing a quiet stream. */
const keepAliveMs = 15_000;
/** A stream ends after this long (a run queued with no worker could hold it open for good); the client opens another. */
const longestStreamMs = 15 * 60_000;

/**
 * GET /api/runs/<id>/events: the run's progress as Server-Sent Events, from
 * where it stands now until it settles:
 * - `status` `{ status }` whenever it changes (queued → running → …);
 * - `node` `{ nodeRunId, nodeId, status, error }` when a node run starts or ends;
 * - `call` `{ id, nodeRunId, server, tool, isError, durationMs }` per tool call written (arguments and results stay in the trace);
 * - `end` with the Run (as GET /api/runs/<id>) once it has ended or waits for a person; then the stream closes;
 * - `timeout` `{ status, reopen }` after 15 minutes without an end: open it again to go on.
 * A viewer's token or session.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const authorized = await authorizeApiCaller(request, "viewer");
  if (!authorized.ok) return authorized.response;
  const { id } = await context.params;
  if (!(await runService().read(id))) return apiError(404, `There is no run "${id}".`);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      let status = "";
      let afterSequence = 0;
      const nodes = new Map<string, string>();
      let quietSince = Date.now();
      const endBy = Date.now() + longestStreamMs;
      try {
        while (!request.signal.aborted) {
          if (Date.now() > endBy) {
            send("timeout", { status, reopen: `/api/runs/${encodeURIComponent(id)}/events` });
            break;
          }
          const trace = await getRunTrace(id, { afterSequence, limit: 500 });
          if (!trace) break;
          if (trace.run.status !== status) send("status", { status: (status = trace.run.status) });
          for (const node of trace.nodeRuns) {
            if (nodes.get(node.id) === node.status) continue;
            nodes.set(node.id, node.status);
            send("node", { nodeRunId: node.id, nodeId: node.nodeId, status: node.status, error: node.error ?? null });
          }
          for (const call of trace.toolCalls) {
            afterSequence = Math.max(afterSequence, call.sequence ?? afterSequence);
            send("call", { id: call.id, nodeRunId: call.nodeRunId, server: call.server, tool: call.tool, isError: call.isError, durationMs: call.durationMs });
          }
          if (trace.toolCalls.length > 0) quietSince = Date.now();
          if (settledStatuses.has(trace.run.status) && trace.toolCalls.length < 500) {
            const state = await runService().read(id);
            if (state) send("end", runAnswerOf(state));
            break;
          }
          if (Date.now() - quietSince > keepAliveMs) {
            controller.enqueue(encoder.encode(": still running\n\n"));
            quietSince = Date.now();
          }
          await new Promise((resolve) => setTimeout(resolve, readEveryMs));
        }
      } catch (error) {
        send("error", { error: `The run could not be read: ${(error as Error).message.split("\n")[0]}` });
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", Connection: "keep-alive", "X-Accel-Buffering": "no" } });
}
