import { Client, type ClientOptions } from "@modelcontextprotocol/client";
import type { QuestionAnswer, QuestionAsker, ToolQuestion } from "../run-model/tool-question";

/** What a client declares when, and only when, someone can answer: both modes (2025-11-25 and later; earlier revisions read any `elicitation` as form). */
export const elicitationCapability = { elicitation: { form: {}, url: {} } } as const;

/**
 * The questions (MCP elicitation) a server sends on one session, routed to
 * the call that is in flight. A 2025-era server sends `elicitation/create`
 * while its tools/call is open; a 2026-07-28 server answers the call with
 * `input_required`, and the SDK hands each embedded request to the same
 * handler before it retries the call. Neither names the call it belongs to
 * on stdio, so a question is answered only when exactly one call that can
 * answer is in flight; otherwise (no call, or several at once) it is
 * cancelled: no answer is ever given to the wrong call.
 */
export class SessionQuestions {
  readonly #asking = new Set<{ ask: QuestionAsker }>();

  /** Runs the call with `ask` answering the questions the server sends meanwhile. */
  async during<T>(ask: QuestionAsker | undefined, call: () => Promise<T>): Promise<T> {
    if (!ask) return call();
    const entry = { ask };
    this.#asking.add(entry);
    try {
      return await call();
    } finally {
      this.#asking.delete(entry);
    }
  }

  /** The answer to one request; throws when the person's answer is not there yet (the run stops to wait, and the server is told the request failed). */
  async answer(params: Record<string, unknown>): Promise<QuestionAnswer> {
    const [only, ...others] = [...this.#asking];
    if (!only || others.length > 0) return { action: "cancel" };
    return only.ask(questionOf(params));
  }

  /** Registers the elicitation handler on a client that declared the capability. */
  install(client: Client): void {
    client.setRequestHandler("elicitation/create", async (request) => wireAnswer(await this.answer(request.params as Record<string, unknown>)));
  }
}

/** The request's params as a ToolQuestion (form mode when `mode` is absent, as 2025-06-18 servers send it). */
export function questionOf(params: Record<string, unknown>): ToolQuestion {
  const message = typeof params.message === "string" ? params.message : "";
  if (params.mode === "url") return { mode: "url", message, url: String(params.url ?? ""), ...(typeof params.elicitationId === "string" ? { elicitationId: params.elicitationId } : {}) };
  return { mode: "form", message, requestedSchema: (params.requestedSchema ?? { type: "object", properties: {} }) as Record<string, unknown> };
}

function wireAnswer(answer: QuestionAnswer) {
  if (answer.action === "accept") return { action: "accept" as const, ...(answer.content ? { content: answer.content as Record<string, string | number | boolean | string[]> } : {}) };
  return { action: answer.action };
}

/** A v2 client that declares elicitation, with the router its session answers through, when `answersQuestions`; a plain one otherwise. */
export function questioningClient(info: { name: string; version: string }, options: ClientOptions, answersQuestions: boolean | undefined): { client: Client; questions?: SessionQuestions } {
  if (!answersQuestions) return { client: new Client(info, options) };
  const client = new Client(info, { ...options, capabilities: { ...options.capabilities, ...elicitationCapability } });
  const questions = new SessionQuestions();
  questions.install(client);
  return { client, questions };
}
