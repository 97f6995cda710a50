/**
 * A chat turn through the engine with the offline model: the thread's
 * history reaches the agent as messages (cut to its window), and its answer
 * goes out piece by piece on the run text feed before the run ends, each
 * piece tagged with the model turn whose journal entry holds the whole text.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoWorkflow } from "../../db/demo-workflow";
import { parseWorkflow } from "../../graph";
import { followRunText, type RunTextPiece } from "../../run-model";
import { MemorySink } from "../../trace/memory-sink";
import { createLocalEnvironment } from "../../runs/local-environment";
import { runWorkflow } from "../run-workflow";

const nodesDir = path.resolve("nodes");

async function chatTurn(question: string, history: Array<{ user: string; assistant: string }>, agentConfig: Record<string, unknown> = {}) {
  const document = structuredClone(demoWorkflow.document) as { nodes: Array<{ id: string; config: Record<string, unknown> }> };
  Object.assign(document.nodes.find((node) => node.id === "agent")!.config, agentConfig);
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new Error("the demo is not a workflow");
  const env = await createLocalEnvironment({ nodesDir });
  const sink = new MemorySink();
  const runId = `chat-${Math.random().toString(36).slice(2)}`;
  const pieces: Array<RunTextPiece & { at: number }> = [];
  const stop = followRunText(runId, (piece) => pieces.push({ ...piece, at: performance.now() }));
  try {
    const outcome = await runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question }, sink, env, chat: { history } });
    return { outcome, pieces, endedAt: performance.now(), sink };
  } finally {
    stop();
  }
}

describe("a chat turn", () => {
  const history = [
    { user: "convert 5 kilometre to mile", assistant: "(offline model) convert answered: 3.10686 mile" },
    { user: "convert 2 kilogram to pound", assistant: "(offline model) convert answered: 4.40925 pound" },
  ];

  it("answers from the thread's history when asked about an earlier turn", async () => {
    const { outcome } = await chatTurn("Which distance did I ask about first?", history);
    expect(outcome.status).toBe("completed");
    expect(outcome.outputs.result).toBe('(offline model) Earlier you said: "convert 5 kilometre to mile". I answered: (offline model) convert answered: 3.10686 mile');
  });

  it("sees only the turns its window keeps", async () => {
    const { outcome } = await chatTurn("What did I ask first?", history, { historyTurns: 1 });
    expect(String(outcome.outputs.result)).toContain('"convert 2 kilogram to pound"');
  });

  it("streams the answer piece by piece, before the run ends, and the pieces make the recorded turn's text", async () => {
    const { outcome, pieces, endedAt } = await chatTurn("Which distance did I ask about first?", history);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every((piece) => piece.turnKey === "agent#1/t1" && piece.nodeId === "agent")).toBe(true);
    expect(pieces.map((piece) => piece.text).join("")).toBe(outcome.outputs.result);
    expect(pieces[0].at).toBeLessThan(endedAt);
    expect(pieces.at(-1)!.at - pieces[0].at).toBeGreaterThan(0);
  });

  it("gives a follower that joins mid-turn the text so far, then the rest; nothing is kept once the run ends", async () => {
    const document = structuredClone(demoWorkflow.document);
    const parsed = parseWorkflow(document);
    if (!parsed.ok) throw new Error("the demo is not a workflow");
    const runId = `late-${Math.random().toString(36).slice(2)}`;
    const early: RunTextPiece[] = [];
    const late: RunTextPiece[] = [];
    let stopLate: (() => void) | undefined;
    const stopEarly = followRunText(runId, (piece) => {
      early.push(piece);
      if (early.length === 3) stopLate = followRunText(runId, (joined) => late.push(joined));
    });
    try {
      const outcome = await runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question: "Which distance did I ask about first?" }, sink: new MemorySink(), env: await createLocalEnvironment({ nodesDir }), chat: { history: [] } });
      expect(outcome.status).toBe("completed");
      expect(late[0]).toMatchObject({ offset: 0, text: early.slice(0, 3).map((piece) => piece.text).join("") });
      expect(late.length).toBeGreaterThan(1);
      expect(late.map((piece) => piece.text).join("")).toBe(outcome.outputs.result);
    } finally {
      stopEarly();
      stopLate?.();
    }
    const after: RunTextPiece[] = [];
    followRunText(runId, (piece) => after.push(piece))();
    expect(after).toEqual([]);
  });

  it("a run that is no chat turn goes out live when someone follows it as its agent starts, and keeps nothing after", async () => {
    const parsed = parseWorkflow(demoWorkflow.document);
    if (!parsed.ok) throw new Error("the demo is not a workflow");
    const pieces: RunTextPiece[] = [];
    const stop = followRunText("plain-run", (piece) => pieces.push(piece));
    const outcome = await runWorkflow({ runId: "plain-run", workflowId: null, workflow: parsed.workflow, input: { question: "convert 5 kilometre to mile" }, sink: new MemorySink(), env: await createLocalEnvironment({ nodesDir }) });
    stop();
    expect(outcome.status).toBe("completed");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((piece) => piece.text).join("")).toBe(outcome.outputs.result);
    const after: RunTextPiece[] = [];
    followRunText("plain-run", (piece) => after.push(piece))();
    expect(after).toEqual([]);
  });
});
