import http from "node:http";
import type { AddressInfo } from "node:net";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import type { Connector } from "../../lib/mcp/connection-manager/server-link";
import { sessionOfClient } from "../../lib/mcp/mcp-session";
import { questioningClient } from "../../lib/mcp/session-questions";

/** What the tools did: every answer that reached them, in order. */
export interface QuestionEffects {
  answers: Array<{ tool: string; action: string; content?: Record<string, unknown> }>;
}

export const guestsQuestion = {
  message: "How many guests, and under which name?",
  requestedSchema: {
    type: "object" as const,
    properties: {
      guests: { type: "integer" as const, title: "Guests", minimum: 1, maximum: 12 },
      name: { type: "string" as const, title: "Name", description: "Who the table is booked for" },
    },
    required: ["guests"],
  },
};

export const accountUrl = "https://accounts.example.com/connect";

function said(effects: QuestionEffects, tool: string, answer: { action: string; content?: Record<string, unknown> }) {
  effects.answers.push({ tool, action: answer.action, ...(answer.content ? { content: answer.content } : {}) });
  const text = answer.action === "accept" ? `${tool}: accepted ${JSON.stringify(answer.content ?? {})}` : `${tool}: ${answer.action}d`;
  return { content: [{ type: "text" as const, text }] };
}

/**
 * TEST DOUBLE: a v2-SDK server whose tools ask the client (MCP
 * elicitation): `book_table` in form mode, `connect_account` in URL mode.
 * In the 2025 era they send `elicitation/create` during the call; in
 * 2026-07-28 they answer `input_required` and read the retried call's
 * `inputResponses`. Each answer that reaches a tool is kept in `effects`.
 */
export function questionServer(era: "2025" | "2026-07-28", effects: QuestionEffects): McpServer {
  const server = new McpServer({ name: `questions-${era}`, version: "1.0.0" }, { capabilities: { tools: {} } });
  const tool = (name: string, ask: { mode: "form"; message: string; requestedSchema: typeof guestsQuestion.requestedSchema } | { mode: "url"; message: string; url: string }) =>
    server.registerTool(name, { description: `Asks the person (${ask.mode} mode) before it acts`, inputSchema: z.object({}), annotations: { destructiveHint: false } }, async (_args, ctx) => {
      if (era === "2025") {
        const answer = await ctx.mcpReq.elicitInput(ask.mode === "url" ? { ...ask, elicitationId: `${name}-1` } : ask);
        return said(effects, name, answer);
      }
      const response = inputResponse(ctx.mcpReq.inputResponses, "ask");
      if (response.kind === "elicit") return said(effects, name, response);
      return inputRequired({ inputRequests: { ask: ask.mode === "url" ? inputRequired.elicitUrl({ message: ask.message, url: ask.url }) : inputRequired.elicit(ask) } });
    });
  tool("book_table", { mode: "form", ...guestsQuestion });
  tool("connect_account", { mode: "url", message: "Connect your account, then come back.", url: accountUrl });
  return server;
}

/** TEST DOUBLE: the 2025-era server over an in-memory transport, reached by the same client Switchboard builds (declaring elicitation). */
export function legacyQuestionConnector(effects: QuestionEffects): Connector {
  return async () => {
    const server = questionServer("2025", effects);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const { client, questions } = questioningClient({ name: "switchboard", version: "test" }, {}, true);
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    const session = sessionOfClient(client, { endpointId: "questions", clientInfo: { name: "switchboard", version: "test" }, questions });
    return { client: session, close: () => session.close() };
  };
}

/** TEST DOUBLE: the 2026-07-28 server over Streamable HTTP on 127.0.0.1 (stateless: every round of a call is its own request). */
export async function startModernQuestionServer(effects: QuestionEffects): Promise<{ url: string; close(): Promise<void> }> {
  const answer = createMcpHandler(() => questionServer("2026-07-28", effects), { legacy: "reject" }).fetch;
  const listener = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method, headers: incoming.headers as Record<string, string>, body: incoming.method === "POST" ? Buffer.concat(chunks) : undefined });
    const response = await answer(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((resolve) => listener.close(() => resolve())) };
}
