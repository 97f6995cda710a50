import { authorizeApiCaller } from "@/lib/auth";
import { prisma } from "@/lib/db/app";
import { appFrameHeaders } from "@/lib/mcp";
import { toolAppOf } from "@/lib/runs";

type Params = { params: Promise<{ runId: string }> };

const maxNameLength = 200;
/** An answer that is not an app: plain text that runs nothing and may be framed by this app's pages only. */
const refusalHeaders = { "Content-Type": "text/plain; charset=utf-8", "Content-Security-Policy": "default-src 'none'; frame-ancestors 'self'; sandbox", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" };

/**
 * GET /app-frame/<run id>?server=<id>&tool=<name>: the HTML of the MCP App
 * a tool of this run's calls declares, as the document of its sandboxed
 * iframe (components/mcp-app/app-frame.tsx). Served with its own
 * Content-Security-Policy header built from the resource's declared
 * domains (`_meta.ui.csp`) and nothing else, `sandbox allow-scripts`
 * among it, so the document has an opaque origin wherever it is opened.
 * Read as the trace and the chat read it: a viewer or above; a tool the
 * run called or waits to call; a turn of another person's unshared thread
 * is 404, as the thread is.
 */
export async function GET(request: Request, context: Params): Promise<Response> {
  const authorized = await authorizeApiCaller(request, "viewer");
  if (!authorized.ok) return authorized.response;
  const { runId } = await context.params;
  const query = new URL(request.url).searchParams;
  const server = query.get("server") ?? "";
  const tool = query.get("tool") ?? "";
  for (const [field, value] of [["server", server], ["tool", tool]] as const) {
    if (value === "") return new Response(`${field}: required (the query names the registry server and the tool)\n`, { status: 400, headers: refusalHeaders });
    if (value.length > maxNameLength) return new Response(`${field}: longer than ${maxNameLength} characters\n`, { status: 400, headers: refusalHeaders });
  }
  try {
    const outcome = await toolAppOf(prisma(), { runId, server, tool, viewerId: authorized.caller.actor.id });
    if (outcome === null) return new Response(`Run ${runId} has no app of tool ${tool} (${server}) that you can see.\n`, { status: 404, headers: refusalHeaders });
    if (outcome.kind === "text") return new Response(`The tool's app is not shown: ${outcome.reason}.\n`, { status: 422, headers: refusalHeaders });
    return new Response(outcome.html, { status: 200, headers: appFrameHeaders(outcome.policy) });
  } catch (error) {
    console.error(`GET /app-frame/${runId}:`, error);
    return new Response("The tool's app could not be read because of an error on our side; the server log has the details.\n", { status: 500, headers: refusalHeaders });
  }
}
