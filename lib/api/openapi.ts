import { z } from "zod";
import { apiSchemas } from "./run-api";
// Registers the chat's schemas.
import "./chat-api";

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string, description: string) => ({ description, content: { "application/json": { schema: ref(id) } } });
const errors = (...codes: Array<[number, string]>) => Object.fromEntries(codes.map(([code, description]) => [String(code), json("Error", description)]));
const unauthorized: [number, string] = [401, "No token, or a wrong one."];
const forbidden: [number, string] = [403, "The token's role is too low for this call, or the request came from a web page of another origin."];
const tooMany: [number, string] = [429, "Too many wrong tokens from this address: wait (Retry-After)."];
const pathId = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string" } });
/** The chat routes also take a chat widget's calls (docs/chat.md, "Embedding a chat"): its token, with these two headers. */
const chatSecurity = [{ bearerToken: [] }, { session: [] }, { widgetToken: [] }];
const widgetHeaders = [
  { name: "X-Visitor-Id", in: "header", required: false, description: "With a widget token (`sbw_…`), required: the visitor's id, random and kept by the widget (8 to 64 letters, digits, - or _). The visitor sees only their own threads. Ignored with a personal token or a session.", schema: { type: "string", pattern: "^[A-Za-z0-9_-]{8,64}$" } },
  { name: "X-Embed-Parent", in: "header", required: false, description: "With a widget token, from the widget's own frame (a request whose Origin is this app's): the origin of the page the widget is shown on, checked against the widget's allowed origins. A host page calling directly is checked by its Origin instead.", schema: { type: "string", format: "uri" } },
];
const widgetUnauthorized: [number, string] = [401, "No token, or a wrong one (a widget token may have been rotated)."];
const widgetForbidden: [number, string] = [403, "The role is too low; or, with a widget token: another workflow's, the widget turned off, or a page origin it is not allowed on (named)."];

/**
 * The HTTP API as an OpenAPI 3.1 document, its schemas generated from the
 * same zod schemas the routes parse and answer with (lib/api/run-api.ts).
 * Served at /api/openapi.json.
 */
export function openApiDocument(serverUrl?: string): Record<string, unknown> {
  const generated = z.toJSONSchema(apiSchemas, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` }).schemas;
  const schemas = Object.fromEntries(Object.entries(generated).map(([id, schema]) => [id, withoutHeader(schema as Record<string, unknown>)]));
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchboard API",
      version: "1.0.0",
      description:
        "Start runs of saved workflows, follow them and cancel them; chat with them. Authenticate with a personal token from the Tokens page (`Authorization: Bearer <token>`); it acts with its owner's role: runners and above start and cancel runs, viewers read them. A published chat widget's token (`Authorization: Bearer sbw_…`, with `X-Visitor-Id` and, from its frame, `X-Embed-Parent`) is taken by its workflow's chat routes only.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearerToken: [] }, { session: [] }],
    paths: {
      "/api/workflows/{workflowId}/runs": {
        post: {
          operationId: "startRun",
          summary: "Start a run of a saved workflow",
          description: "Checks the input against the Start node's fields, queues the run and answers at once. With an Idempotency-Key, a retried request (same token, within 24 hours) answers the run the first one started and starts nothing.",
          parameters: [
            pathId("workflowId", "The workflow's id (its canvas URL: /workflows/<id>)."),
            { name: "Idempotency-Key", in: "header", required: false, description: "Any unique string per intended run, e.g. a UUID.", schema: { type: "string", minLength: 1, maxLength: 255 } },
          ],
          requestBody: { required: false, content: { "application/json": { schema: ref("StartRunBody") } } },
          responses: {
            "202": json("StartRunAnswer", "Queued (or, for a repeated Idempotency-Key, the run the first request started)."),
            ...errors([400, "The input does not fit the Start's fields (`field` names the one at fault), or the body is not JSON."], unauthorized, forbidden, [404, "There is no such workflow."], [409, "The workflow has problems to fix on the canvas first."], tooMany),
          },
        },
      },
      "/api/workflows/{workflowId}/chat": {
        post: {
          operationId: "sendChatMessage",
          summary: "Send a message to a chat thread; the answer streams",
          description: "One turn of a thread (a new thread without threadId): a run of the saved workflow, its message in the Start's chat field. Answers the AI SDK's UI message stream (Server-Sent Events): text-delta parts as the agent writes, tool-input-available / tool-output-available as tool calls start and end, tool-approval-request for a call held for approval, then finish. Headers X-Chat-Thread-Id and X-Run-Id name the thread and the turn's run. See docs/chat.md.",
          security: chatSecurity,
          parameters: [pathId("workflowId", "The workflow's id."), ...widgetHeaders],
          requestBody: { required: true, content: { "application/json": { schema: ref("ChatTurnBody") } } },
          responses: {
            "200": { description: "The turn, as a UI message stream. A widget's visitor gets the answer's text only: no tool call, argument, result or approval, and a failed turn in general words.", content: { "text/event-stream": { schema: { type: "string" } } } },
            ...errors(
              [400, "The message is empty or over the limit (named), the workflow cannot be chatted with, or a widget call has no valid X-Visitor-Id."],
              widgetUnauthorized,
              [403, "The thread was shared with you to read only, or the role is too low; or, with a widget token: another workflow's, the widget turned off, or a page origin it is not allowed on (named)."],
              [404, "There is no such workflow, or no thread of it that you can see."],
              [409, "The workflow has problems to fix on the canvas first, or the thread's last turn has not ended."],
              [413, "The body is over its size limit (smaller for a widget's visitor)."],
              [429, "Too many wrong tokens from this address, or a widget's visitor sent more messages in a minute than the widget allows: wait (Retry-After)."],
            ),
          },
        },
        get: {
          operationId: "listChatThreads",
          summary: "The chat threads of a workflow you can see (yours and the shared ones)",
          description: "With a widget token, the visitor's own threads only.",
          security: chatSecurity,
          parameters: [pathId("workflowId", "The workflow's id."), { name: "place", in: "query", required: false, description: "page (the chat page and the API) or canvas (the playground).", schema: { type: "string", enum: ["page", "canvas"] } }, ...widgetHeaders],
          responses: { "200": { description: "`{ threads, viewerId }`, the latest first.", content: { "application/json": { schema: { type: "object" } } } }, ...errors([400, "place is not page or canvas, or a widget call has no valid X-Visitor-Id."], widgetUnauthorized, widgetForbidden, [404, "There is no such workflow."], tooMany) },
        },
      },
      "/api/workflows/{workflowId}/chat/{threadId}": {
        get: {
          operationId: "getChatThread",
          summary: "A thread and its turns (each a run: message, answer, status)",
          parameters: [pathId("workflowId", "The workflow's id."), pathId("threadId", "The thread's id.")],
          responses: { "200": { description: "`{ thread, turns }`.", content: { "application/json": { schema: { type: "object" } } } }, ...errors(unauthorized, forbidden, [404, "There is no such thread that you can see."], tooMany) },
        },
        patch: {
          operationId: "changeChatThread",
          summary: "Rename or share a thread (its owner only)",
          parameters: [pathId("workflowId", "The workflow's id."), pathId("threadId", "The thread's id.")],
          requestBody: { required: true, content: { "application/json": { schema: ref("ChatThreadChange") } } },
          responses: { "200": { description: "`{ thread }`, changed.", content: { "application/json": { schema: { type: "object" } } } }, ...errors([400, "The title is empty or too long."], unauthorized, [403, "Only the person who started the thread may change it."], [404, "There is no such thread that you can see."], tooMany) },
        },
        delete: {
          operationId: "deleteChatThread",
          summary: "Delete a thread (its owner only); its runs stay",
          parameters: [pathId("workflowId", "The workflow's id."), pathId("threadId", "The thread's id.")],
          responses: { "204": { description: "Deleted." }, ...errors(unauthorized, [403, "Only the person who started the thread may delete it."], [404, "There is no such thread that you can see."], tooMany) },
        },
      },
      "/api/runs/{runId}": {
        get: {
          operationId: "getRun",
          summary: "Where a run stands: status, outputs, error",
          parameters: [pathId("runId", "The run's id.")],
          responses: { "200": json("Run", "The run."), ...errors(unauthorized, forbidden, [404, "There is no such run."], tooMany) },
        },
      },
      "/api/runs/{runId}/events": {
        get: {
          operationId: "streamRunEvents",
          summary: "Follow a run as Server-Sent Events",
          description: "Events: `status` `{status}`, `node` `{nodeRunId, nodeId, status, error}`, `call` `{id, nodeRunId, server, tool, isError, durationMs}`, then `end` with the Run once it has ended or waits for a person; the stream closes after `end` (or, after 15 minutes without one, after `timeout` `{status, reopen}`: open it again).",
          parameters: [pathId("runId", "The run's id.")],
          responses: { "200": { description: "The event stream.", content: { "text/event-stream": { schema: { type: "string" } } } }, ...errors(unauthorized, forbidden, [404, "There is no such run."], tooMany) },
        },
      },
      "/api/runs/{runId}/cancel": {
        post: {
          operationId: "cancelRun",
          summary: "Ask a run to stop",
          parameters: [pathId("runId", "The run's id.")],
          responses: { "200": json("CancelRunAnswer", "Cancelled, or asked to stop."), ...errors(unauthorized, forbidden, [404, "There is no such run."], [409, "The run has already ended."], tooMany) },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        bearerToken: { type: "http", scheme: "bearer", description: "A personal token from the Tokens page (/tokens), or the server's SWITCHBOARD_MCP_TOKEN." },
        session: { type: "apiKey", in: "cookie", name: "switchboard_session", description: "A signed-in person's session (the app's own pages)." },
        widgetToken: { type: "http", scheme: "bearer", description: "A chat widget's token (`sbw_…`, shown once on the workflow's Widgets page): runner rights on that widget's workflow, for its chat routes only, with `X-Visitor-Id` (and `X-Embed-Parent` from the widget's frame). Other routes refuse it." },
      },
    },
  };
}

/** A component needs neither its own `$schema` nor an `$id`: the document's dialect and its place name it. */
function withoutHeader(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}
