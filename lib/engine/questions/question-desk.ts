import type { AgentTool, CallMeta } from "../../tools";
import type { QuestionAnswer, ToolQuestion } from "../../run-model/tool-question";
import type { RunSink, QuestionRequest } from "../../trace";
import { RunInterruption, type StepRecorder } from "../journal/step-recorder";

/** A person's answer as the journal keeps it under the question's key. */
export interface RecordedAnswer {
  answer: QuestionAnswer;
  by: string;
  at: string;
}

export interface QuestionDeskOptions {
  runId: string;
  recorder: StepRecorder;
  sink: RunSink;
  nodeId: string;
  now: () => Date;
  /** How long a question waits before it is cancelled (hours). Default 24, as an approval. */
  timeoutHours?: number;
}

/**
 * Questions tools ask during a call (MCP elicitation), answered through the
 * run's journal so that no process waits for a person. The n-th question of
 * a call is `<call key>/elicit/<n>`: recorded answer → given to the tool
 * (and one trace row, server `switchboard`, tool `question`, written);
 * none → the question is recorded under `…/waiting`, the call is stopped
 * and the run stops as needs-attention with `attention.question`. Once the
 * answer is recorded the run is queued again and the call is made again;
 * the tool asks again and the answer is there. A question that differs
 * from the recorded one at its place (the tool asked something else this
 * time) is a new question (`…/elicit/<n>~1`): an answer is never given to
 * a question it was not given for.
 */
export class QuestionDesk {
  constructor(private readonly options: QuestionDeskOptions) {}

  /** The per-call side: `ask` for the call's meta, and the interruption to throw once the call returned. */
  /** `choiceKey`: where the go-ahead for this attempt of the call is recorded when its question is answered. */
  forCall(tool: Pick<AgentTool, "name" | "server">, args: unknown, meta: CallMeta, callKey: string, stop: () => void, choiceKey?: string): CallQuestions {
    return new CallQuestions(this.options, tool, args, meta, callKey, stop, choiceKey);
  }

  /** The first question of this call still waiting for an answer, if any: the call is not made again before it is answered. */
  pending(callKey: string): QuestionRequest | undefined {
    const { recorder } = this.options;
    for (let n = 0; recorder.has(`${callKey}/elicit/${n}/waiting`); n++) {
      for (const key of variants(`${callKey}/elicit/${n}`)) {
        const waiting = recorder.has(`${key}/waiting`)?.value as QuestionRequest | undefined;
        if (!waiting) break;
        if (!recorder.has(key) && !expired(waiting, this.options.now())) return waiting;
      }
    }
    return undefined;
  }

  /** Whether the call stopped for a question before: then making it again is what the person's answer asks for. */
  asked(callKey: string): boolean {
    return this.options.recorder.has(`${callKey}/elicit/0/waiting`) !== undefined;
  }

  /** The interruption that says the call waits for an answer. */
  waitFor(tool: Pick<AgentTool, "name" | "server">, args: unknown, nodeRunId: string, callKey: string, request: QuestionRequest, choiceKey?: string): RunInterruption {
    const message = `${tool.server}/${tool.name} asks a question: ${request.question.message || (request.question.mode === "url" ? request.question.url : "(no message)")}`;
    return new RunInterruption("needs-attention", message, { key: callKey, ...(choiceKey ? { choiceKey } : {}), nodeId: this.options.nodeId, nodeRunId, tool: tool.name, server: tool.server, arguments: args, message, question: request });
  }

  get settings(): QuestionDeskOptions {
    return this.options;
  }
}

/** One call's questions, in the order the tool asks them. */
export class CallQuestions {
  private asked = 0;
  /** Set when a question had no answer yet: the call was stopped, and the run stops with this. */
  interruption: RunInterruption | null = null;

  constructor(
    private readonly options: QuestionDeskOptions,
    private readonly tool: Pick<AgentTool, "name" | "server">,
    private readonly args: unknown,
    private readonly meta: CallMeta,
    private readonly callKey: string,
    private readonly stop: () => void,
    private readonly choiceKey?: string,
  ) {}

  readonly ask = async (question: ToolQuestion): Promise<QuestionAnswer> => {
    const { recorder } = this.options;
    const now = this.options.now();
    const base = `${this.callKey}/elicit/${this.asked++}`;
    for (const key of variants(base)) {
      const waiting = recorder.has(`${key}/waiting`)?.value as QuestionRequest | undefined;
      if (waiting && !sameQuestion(waiting.question, question)) continue;
      const request = waiting ?? { key, question, since: now.toISOString(), deadline: new Date(now.getTime() + (this.options.timeoutHours ?? 24) * 3_600_000).toISOString() };
      const recorded = (recorder.has(key)?.value as RecordedAnswer | undefined) ?? (waiting && expired(waiting, now) ? { answer: { action: "cancel" as const }, by: "timeout", at: now.toISOString() } : undefined);
      if (recorded) {
        await this.writeAnswerRow(request, recorded);
        return recorded.answer;
      }
      if (!waiting) await recorder.record({ key: `${key}/waiting`, kind: "waiting", value: request });
      this.interruption ??= new QuestionDesk(this.options).waitFor(this.tool, this.args, this.meta.nodeRunId, this.callKey, request, this.choiceKey);
      this.stop();
      throw new Error("Switchboard waits for a person's answer to this question; the call will be made again with it");
    }
    throw new Error("unreachable: variants() never ends");
  };

  /** The answer as a trace row, once: what was asked, what the person answered, who and when. */
  private async writeAnswerRow(request: QuestionRequest, recorded: RecordedAnswer): Promise<void> {
    const { recorder, sink } = this.options;
    const rowKey = `${request.key}/answered`;
    if (recorder.has(rowKey)) return;
    const summary = { call: `${this.tool.server}/${this.tool.name}`, callKey: this.callKey, question: request.question, answer: recorded.answer, by: recorded.by, at: recorded.at, askedSince: request.since };
    await sink.toolCall({
      id: recorder.rowId(rowKey),
      stepKey: rowKey,
      runId: this.options.runId,
      nodeRunId: this.meta.nodeRunId,
      tool: "question",
      server: "switchboard",
      caller: this.options.nodeId,
      arguments: summary,
      result: recorded.by === "timeout" ? "cancelled (timed out)" : answerWord(recorded.answer),
      error: null,
      isError: false,
      tainted: false,
      startedAt: this.options.now().toISOString(),
      durationMs: 0,
      inputTokens: null,
      outputTokens: null,
    });
    await recorder.record({ key: rowKey, kind: "decision", value: recorded });
  }
}

function* variants(base: string): Generator<string> {
  yield base;
  for (let n = 1; ; n++) yield `${base}~${n}`;
}

function answerWord(answer: QuestionAnswer): string {
  return answer.action === "accept" ? "answered" : answer.action === "decline" ? "declined" : "cancelled";
}

function expired(request: QuestionRequest, now: Date): boolean {
  return new Date(request.deadline).getTime() <= now.getTime();
}

/** The same question: the same message and schema, or the same message and URL (a URL question's id is minted afresh by each call). */
export function sameQuestion(a: ToolQuestion, b: ToolQuestion): boolean {
  if (a.mode !== b.mode || a.message !== b.message) return false;
  if (a.mode === "url" && b.mode === "url") return a.url === b.url;
  return a.mode === "form" && b.mode === "form" && JSON.stringify(a.requestedSchema) === JSON.stringify(b.requestedSchema);
}
