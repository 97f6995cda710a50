import { DatabaseError } from "@/lib/db";
import { endpointErrorResponse, EndpointRefusal } from "@/lib/mcp";
// Named files, not lib/auth's index: the endpoint also runs outside Next (its process tests), where the index's page checks cannot load.
import { authorizeEndpointBearer } from "@/lib/auth/endpoint-bearer";
import { accounts } from "@/lib/auth/sessions";
import { endpointSessions, openWorkflowEndpoint } from "../endpoint-sessions";

interface RouteContext {
  params: Promise<{ workflowId: string }>;
}

/**
 * /api/mcp/<workflow id>: the workflow as an MCP server for outside hosts
 * (Claude Desktop, ChatGPT, any MCP client), over Streamable HTTP. Its
 * service nodes' methods and its titled Task Starts are the tools; every
 * call is a Run of the workflow with one trace row whose caller is
 * `mcp-host:<client name>`. Requires `Authorization: Bearer <token>`:
 * a person's token from /tokens (acting with their role; runner or higher,
 * since a call starts a run) or the owner-level SWITCHBOARD_MCP_TOKEN. See
 * docs/security.md and docs/runs.md, "Calls from an outside MCP host".
 */
export async function POST(request: Request, context: RouteContext): Promise<Response> {
  return serve(request, context);
}

/** Answered 405: the endpoint opens no server-sent event stream. */
export async function GET(request: Request, context: RouteContext): Promise<Response> {
  return serve(request, context);
}

/** Ends the session named by `Mcp-Session-Id`, cancelling its running tasks. */
export async function DELETE(request: Request, context: RouteContext): Promise<Response> {
  return serve(request, context);
}

async function serve(request: Request, context: RouteContext): Promise<Response> {
  const authorized = await authorizeEndpointBearer(request, endpointTokenBook(), "runner");
  if (!authorized.ok) return authorized.response;
  const { workflowId } = await context.params;
  try {
    return await endpointSessions().handle(request, { workflowId, principal: authorized.actor.email, ownerId: authorized.actor.id, open: (host, taskScope) => openWorkflowEndpoint(workflowId, host, taskScope) });
  } catch (error) {
    if (error instanceof EndpointRefusal) return endpointErrorResponse(error.status, error.message);
    if (error instanceof DatabaseError) return endpointErrorResponse(503, error.message);
    // The whole error for the server log; one line for the host, never a stack trace.
    console.error(`MCP endpoint for workflow "${workflowId}":`, error);
    return endpointErrorResponse(500, "The MCP endpoint failed because of an error on our side; the server log has the details.", { code: -32603 });
  }
}

/** The people's stored tokens and the environment's owner-level one. */
function endpointTokenBook() {
  const store = accounts();
  return {
    environmentToken: process.env.SWITCHBOARD_MCP_TOKEN,
    findToken: (tokenHash: string) => store.findActiveApiToken(tokenHash),
    hasTokens: async () => (await store.countActiveApiTokens()) > 0,
    used: (id: string) => store.touchApiToken(id),
  };
}
