import { randomBytes, randomUUID } from "node:crypto";
import { createRequestStateCodec, inputRequired, inputResponse, type ServerContext } from "@modelcontextprotocol/server";
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { QuestionAnswer, ToolQuestion } from "../run-model/tool-question";
import type { WorkflowEndpoint } from "./workflow-endpoint";

/** What the signed `requestState` carries: which held call and which of its questions, for which workflow and which caller. */
interface HeldState {
  held: string;
  key: string;
  workflowId: string;
  principal: string;
}

type Settled = { ok: true; result: CallToolResult } | { ok: false; error: unknown };
type Turn = { kind: "result"; settled: Settled } | { kind: "question"; key: string; question: ToolQuestion };

interface HeldCall {
  id: string;
  workflowId: string;
  principal: string;
  tool: string;
  endpoint: WorkflowEndpoint;
  controller: AbortController;
  settled: Promise<Settled>;
  /** The question the sub-flow put to the host and waits on, until the host's re-sent request answers it. */
  pending?: { key: string; question: ToolQuestion; answer(answer: QuestionAnswer): void; timer: ReturnType<typeof setTimeout> };
  /** The request waiting for the next turn (a question, or the result). */
  waiter?: (turn: Turn) => void;
  asked: number;
}

export interface HostQuestionRoundsOptions {
  /** How long a question waits for the host's re-sent request before it is answered `cancel` (the approval then waits in the app). Default 10 minutes. */
  holdMs?: number;
  /** The HMAC key of `requestState` (at least 32 bytes). Default: a random one per process, since the held calls live in this process. */
  key?: Uint8Array | string;
}

/**
 * Questions a served workflow's sub-flow puts to a 2026-07-28 host, the
 * way that revision carries them: the server does not send the host a
 * request; it answers the host's `tools/call` with an `input_required`
 * result (the question as an embedded `elicitation/create`, and a signed
 * `requestState`), and the host sends the call again with its answer in
 * `inputResponses`. Meanwhile the call goes on in this process: the
 * sub-flow waits on the question (its approval asked through
 * host-approver.ts), and the re-sent request hands it the answer and
 * waits for the next question or the call's result.
 *
 * Safe by construction: the `requestState` is HMAC-signed (the SDK's
 * codec, 10 minutes) and names the workflow and the caller, so another
 * caller cannot answer it; a question nobody answers within `holdMs` is
 * answered `cancel` and the approval waits on the Approvals page as for a
 * host that cannot be asked. A re-sent request that reaches another
 * process (or arrives after that) is told so in one line.
 */
export class HostQuestionRounds {
  readonly #held = new Map<string, HeldCall>();
  readonly #holdMs: number;
  readonly #codec;

  constructor(options: HostQuestionRoundsOptions = {}) {
    this.#holdMs = options.holdMs ?? 10 * 60_000;
    this.#codec = createRequestStateCodec<HeldState>({ key: options.key ?? randomBytes(32), ttlSeconds: Math.ceil(this.#holdMs / 1000) + 60 });
  }

  /** Whether this request is a re-sent one carrying the answer to a question. */
  isRound(context: ServerContext): boolean {
    return typeof context.mcpReq.requestState() === "string";
  }

  /**
   * Starts a call whose sub-flow may ask the host: answers with its result
   * when it asks nothing, otherwise with the first question as
   * `input_required`. The endpoint stays open while the call is held and
   * is closed when the call ends.
   */
  async start(endpoint: WorkflowEndpoint, params: CallToolRequest["params"], context: ServerContext, who: { workflowId: string; principal: string }): Promise<CallToolResult | Record<string, unknown>> {
    const controller = new AbortController();
    const held: HeldCall = { id: randomUUID(), workflowId: who.workflowId, principal: who.principal, tool: params.name, endpoint, controller, settled: Promise.resolve({ ok: false, error: null }), asked: 0 };
    const ask = (question: ToolQuestion) =>
      new Promise<QuestionAnswer>((resolve) => {
        held.asked += 1;
        const key = `switchboard-question-${held.asked}`;
        // Nobody came back: the question is cancelled, and an approval then waits in the app.
        const timer = setTimeout(() => settleQuestion(held, { action: "cancel" }), this.#holdMs);
        held.pending = { key, question, answer: resolve, timer };
        const waiter = held.waiter;
        held.waiter = undefined;
        waiter?.({ kind: "question", key, question });
      });
    held.settled = endpoint.calls.call(params, controller.signal, ask).then(
      (result): Settled => ({ ok: true, result }),
      (error: unknown): Settled => ({ ok: false, error }),
    );
    this.#held.set(held.id, held);
    void held.settled.then((settled) => {
      const waiter = held.waiter;
      held.waiter = undefined;
      waiter?.({ kind: "result", settled });
      this.#held.delete(held.id);
      if (held.pending) clearTimeout(held.pending.timer);
      void endpoint.close();
    });
    return this.#answer(held, context);
  }

  /** A re-sent request: its answer goes to the question it was asked for, then it waits for the next turn. */
  async round(params: CallToolRequest["params"], context: ServerContext, who: { workflowId: string; principal: string }): Promise<CallToolResult | Record<string, unknown>> {
    const state = context.mcpReq.requestState<string>();
    let payload: HeldState;
    try {
      payload = await this.#codec.verify(String(state), context);
    } catch {
      return gone("its requestState is not one this server signed, or it expired");
    }
    if (payload.workflowId !== who.workflowId || payload.principal !== who.principal) return gone("it was asked of another caller or for another workflow");
    const held = this.#held.get(payload.held);
    if (!held) return gone("the call it belonged to has ended here (it was not answered in time, or this server restarted)");
    if (held.tool !== params.name) return gone(`it was asked during a call of ${held.tool}, not ${params.name}`);
    const pending = held.pending;
    if (pending) {
      // A state minted for an earlier question answers nothing now: the question asked now is asked again.
      if (payload.key !== pending.key) return this.#ask(held, pending.key, pending.question, context);
      const view = inputResponse(context.mcpReq.inputResponses, pending.key);
      // No answer for the question in this request: it is asked again.
      if (view.kind !== "elicit") return this.#ask(held, pending.key, pending.question, context);
      settleQuestion(held, view.action === "accept" ? { action: "accept", ...(view.content ? { content: view.content } : {}) } : { action: view.action });
    }
    return this.#answer(held, context);
  }

  /** Cancels every held call (tests; a server shutting down). */
  async closeAll(): Promise<void> {
    const held = [...this.#held.values()];
    this.#held.clear();
    for (const call of held) {
      if (call.pending) settleQuestion(call, { action: "cancel" });
      call.controller.abort(new Error("the server is shutting down"));
    }
    await Promise.allSettled(held.map((call) => call.settled));
  }

  /** The next turn of a held call, as this request's answer: the question it waits on, or its result. */
  async #answer(held: HeldCall, context: ServerContext): Promise<CallToolResult | Record<string, unknown>> {
    const turn: Turn = held.pending
      ? { kind: "question", key: held.pending.key, question: held.pending.question }
      : await Promise.race([
          held.settled.then((settled): Turn => ({ kind: "result", settled })),
          new Promise<Turn>((resolve) => {
            held.waiter = resolve;
          }),
        ]);
    held.waiter = undefined;
    if (turn.kind === "question") return this.#ask(held, turn.key, turn.question, context);
    if (!turn.settled.ok) throw turn.settled.error;
    return turn.settled.result;
  }

  async #ask(held: HeldCall, key: string, question: ToolQuestion, context: ServerContext): Promise<Record<string, unknown>> {
    const requestState = await this.#codec.mint({ held: held.id, key, workflowId: held.workflowId, principal: held.principal }, context);
    const request =
      question.mode === "url"
        ? inputRequired.elicitUrl({ message: question.message, url: question.url })
        : inputRequired.elicit({ message: question.message, requestedSchema: question.requestedSchema as never });
    return inputRequired({ inputRequests: { [key]: request }, requestState }) as unknown as Record<string, unknown>;
  }
}

function settleQuestion(held: HeldCall, answer: QuestionAnswer): void {
  const pending = held.pending;
  if (!pending) return;
  held.pending = undefined;
  clearTimeout(pending.timer);
  pending.answer(answer);
}

/** A re-sent answer that cannot be used: one line for the host, as a tool error (the call itself may still wait in the app). */
function gone(why: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `This answer cannot be used: ${why}. If the call asked for approval, it waits on the Approvals page of Switchboard; call the tool again to be asked anew.` }],
  };
}

/** One task's question to its host, while the sub-flow waits on it. */
interface TaskQuestion {
  key: string;
  question: ToolQuestion;
  answer(answer: QuestionAnswer): void;
  timer: ReturnType<typeof setTimeout>;
}

interface AskingTask {
  principal: string;
  asked: number;
  pending?: TaskQuestion;
}

/**
 * The same questions for a Task Start run as a task (the
 * `io.modelcontextprotocol/tasks` extension of 2026-07-28): while the
 * sub-flow waits on a question, `tasks/get` reports the task
 * `input_required` with the question under `inputRequests`, and the host
 * answers with `tasks/update` (`inputResponses`). A question nobody answers
 * within `holdMs` is answered `cancel` (the approval then waits in the app).
 */
export class TaskQuestions {
  readonly #tasks = new Map<string, AskingTask>();
  readonly #holdMs: number;

  constructor(options: Pick<HostQuestionRoundsOptions, "holdMs"> = {}) {
    this.#holdMs = options.holdMs ?? 10 * 60_000;
  }

  /** An asker for a task about to start, and the function that names its task once it has an id. */
  asker(principal: string): { ask: (question: ToolQuestion) => Promise<QuestionAnswer>; started(taskKey: string): void } {
    const task: AskingTask = { principal, asked: 0 };
    return {
      ask: (question) =>
        new Promise<QuestionAnswer>((resolve) => {
          task.asked += 1;
          const timer = setTimeout(() => settle(task, { action: "cancel" }), this.#holdMs);
          task.pending = { key: `switchboard-question-${task.asked}`, question, answer: resolve, timer };
        }),
      started: (taskKey) => void this.#tasks.set(taskKey, task),
    };
  }

  /** The question the task waits on, in the shape `tasks/get` carries it (`inputRequests`), or undefined. */
  inputRequests(taskKey: string, principal: string): Record<string, unknown> | undefined {
    const task = this.#tasks.get(taskKey);
    if (!task?.pending || task.principal !== principal) return undefined;
    const { key, question } = task.pending;
    return { [key]: question.mode === "url" ? inputRequired.elicitUrl({ message: question.message, url: question.url }) : inputRequired.elicit({ message: question.message, requestedSchema: question.requestedSchema as never }) };
  }

  /** `tasks/update`: the host's answer to the question it was shown; false when there was no such question for this caller. */
  update(taskKey: string, principal: string, inputResponses: Record<string, unknown> | undefined): boolean {
    const task = this.#tasks.get(taskKey);
    if (!task?.pending || task.principal !== principal) return false;
    const view = inputResponse(inputResponses, task.pending.key);
    if (view.kind !== "elicit") return false;
    settle(task, view.action === "accept" ? { action: "accept", ...(view.content ? { content: view.content } : {}) } : { action: view.action });
    return true;
  }

  /** The task ended: forget it (a question still open is cancelled). */
  ended(taskKey: string): void {
    const task = this.#tasks.get(taskKey);
    this.#tasks.delete(taskKey);
    if (task) settle(task, { action: "cancel" });
  }

  closeAll(): void {
    for (const key of [...this.#tasks.keys()]) this.ended(key);
  }
}

function settle(task: AskingTask, answer: QuestionAnswer): void {
  const pending = task.pending;
  if (!pending) return;
  task.pending = undefined;
  clearTimeout(pending.timer);
  pending.answer(answer);
}
