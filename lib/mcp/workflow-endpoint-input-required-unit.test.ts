import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { QuestionAnswer, QuestionAsker } from "../run-model/tool-question";
import type { WorkflowEndpoint } from "./workflow-endpoint";
import { HostQuestionRounds } from "./workflow-endpoint-input-required";

/** TEST DOUBLE: an endpoint whose one tool asks the host once and answers with what it was told. */
function askingEndpoint() {
  const answers: QuestionAnswer[] = [];
  let closed = false;
  const endpoint = {
    calls: {
      isTask: () => true,
      async call(_params: unknown, _signal: AbortSignal, ask?: QuestionAsker) {
        const answer = await ask!({ mode: "form", message: "Approve?", requestedSchema: { type: "object", properties: { decision: { type: "string" } } } });
        answers.push(answer);
        return { content: [{ type: "text", text: `answered ${answer.action}` }] };
      },
    },
    close: async () => void (closed = true),
  } as unknown as WorkflowEndpoint;
  return { endpoint, answers, closed: () => closed };
}

/** TEST DOUBLE: the handler context of one request, as the SDK's seam lifts it. */
function context(round?: { requestState: string; inputResponses?: Record<string, unknown> }): ServerContext {
  return { mcpReq: { id: 1, method: "tools/call", signal: new AbortController().signal, requestState: () => round?.requestState, inputResponses: round?.inputResponses } } as unknown as ServerContext;
}

const params = { name: "approve_me", arguments: {} };
const who = { workflowId: "w", principal: "runner@example.test" };
type InputRequired = { resultType: string; requestState: string; inputRequests: Record<string, { method: string; params: { message: string } }> };

describe("input_required rounds of a held call", () => {
  it("asks, takes the answer from the re-sent call, asks again when that call carries none, and ends the call", async () => {
    const rounds = new HostQuestionRounds({ holdMs: 60_000 });
    const fake = askingEndpoint();
    const first = (await rounds.start(fake.endpoint, params, context(), who)) as InputRequired;
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests["switchboard-question-1"]).toMatchObject({ method: "elicitation/create", params: { message: "Approve?" } });
    const again = (await rounds.round(params, context({ requestState: first.requestState, inputResponses: {} }), who)) as InputRequired;
    expect(again.resultType).toBe("input_required");
    const done = await rounds.round(params, context({ requestState: again.requestState, inputResponses: { "switchboard-question-1": { action: "decline" } } }), who);
    expect(done).toEqual({ content: [{ type: "text", text: "answered decline" }] });
    expect(fake.answers).toEqual([{ action: "decline" }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.closed()).toBe(true);
  });

  it("answers with the result at once when the call asks nothing, and closes the endpoint", async () => {
    const rounds = new HostQuestionRounds();
    let closed = false;
    const quiet = { calls: { isTask: () => true, call: async () => ({ content: [{ type: "text", text: "nothing to ask" }] }) }, close: async () => void (closed = true) } as unknown as WorkflowEndpoint;
    expect(await rounds.start(quiet, params, context(), who)).toEqual({ content: [{ type: "text", text: "nothing to ask" }] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toBe(true);
  });

  it("refuses an answer from another caller or for another tool, and one that comes after the hold ran out (the question was cancelled)", async () => {
    const rounds = new HostQuestionRounds({ holdMs: 50 });
    const fake = askingEndpoint();
    const first = (await rounds.start(fake.endpoint, params, context(), who)) as InputRequired;
    const accept = { "switchboard-question-1": { action: "accept", content: { decision: "approve" } } };
    expect(await rounds.round(params, context({ requestState: first.requestState, inputResponses: accept }), { ...who, principal: "someone@example.test" })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("another caller") }] });
    expect(await rounds.round({ name: "other_tool" }, context({ requestState: first.requestState, inputResponses: accept }), who)).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("not other_tool") }] });
    expect(fake.answers).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    // Nobody answered in time: the sub-flow was told `cancel` (an approval then waits in the app), and the late answer is refused.
    expect(fake.answers).toEqual([{ action: "cancel" }]);
    expect(await rounds.round(params, context({ requestState: first.requestState, inputResponses: accept }), who)).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("has ended here") }] });
  });

  it("takes an answer only with the state minted for the question asked now: an earlier question's state asks the current one again", async () => {
    const rounds = new HostQuestionRounds({ holdMs: 60_000 });
    const answers: QuestionAnswer[] = [];
    // TEST DOUBLE: a tool that asks twice.
    const twice = {
      calls: {
        isTask: () => true,
        async call(_params: unknown, _signal: AbortSignal, ask?: QuestionAsker) {
          for (const message of ["First?", "Second?"]) answers.push(await ask!({ mode: "form", message, requestedSchema: { type: "object", properties: { decision: { type: "string" } } } }));
          return { content: [{ type: "text", text: "asked twice" }] };
        },
      },
      close: async () => undefined,
    } as unknown as WorkflowEndpoint;
    const first = (await rounds.start(twice, params, context(), who)) as InputRequired;
    const second = (await rounds.round(params, context({ requestState: first.requestState, inputResponses: { "switchboard-question-1": { action: "decline" } } }), who)) as InputRequired;
    expect(second.inputRequests["switchboard-question-2"]).toMatchObject({ params: { message: "Second?" } });
    // The first question's state with a made-up answer to the second: not taken.
    const replayed = (await rounds.round(params, context({ requestState: first.requestState, inputResponses: { "switchboard-question-2": { action: "accept", content: { decision: "approve" } } } }), who)) as InputRequired;
    expect(replayed.resultType).toBe("input_required");
    expect(answers).toEqual([{ action: "decline" }]);
    const done = await rounds.round(params, context({ requestState: replayed.requestState, inputResponses: { "switchboard-question-2": { action: "accept", content: { decision: "approve" } } } }), who);
    expect(done).toEqual({ content: [{ type: "text", text: "asked twice" }] });
    expect(answers).toEqual([{ action: "decline" }, { action: "accept", content: { decision: "approve" } }]);
  });
});
