import { describe, expect, it } from "vitest";
import { canConnect } from "./can-connect";
import { edge, fixtureNodeTypes, node, questionStart, titledTaskStart, workflowOf } from "../../testing/graph/node-types.fixture";

const workflow = workflowOf(
  [questionStart, node("agent", "agent"), node("agent2", "agent"), node("converter", "converter"), node("converter2", "converter"), node("request", "request"), node("gate", "gate"), node("echo", "echo"), node("check", "checker"), titledTaskStart("task")],
  [edge("signal", "start.question", "agent.prompt", "existing")],
);

const connect = (from: string, to: string, kind?: "signal" | "service" | "task") => {
  const [source, sourceHandle] = from.split(".");
  const [target, targetHandle] = to.split(".");
  return canConnect(workflow, fixtureNodeTypes, { source, sourceHandle, target, targetHandle, ...(kind ? { kind } : {}) });
};

describe("canConnect", () => {
  it("infers the kind from the handles", () => {
    expect(connect("agent.answer", "agent2.prompt")).toEqual({ ok: true, kind: "signal" });
    expect(connect("converter.mcpService", "agent.mcpService")).toEqual({ ok: true, kind: "service" });
    expect(connect("task.task", "agent.mcpService")).toEqual({ ok: true, kind: "task" });
  });

  it("refuses a service edge between two consumers, or two providers", () => {
    expect(connect("agent.mcpService", "agent2.mcpService")).toEqual({ ok: false, reason: "A service edge joins a tool provider to an agent; both ends here consume tools." });
    expect(connect("converter.mcpService", "converter2.mcpService")).toEqual({ ok: false, reason: "A service edge joins a tool provider to an agent; both ends here offer tools." });
  });

  it("refuses a signal into a service connector, and says what to use", () => {
    const verdict = connect("echo.text", "agent.mcpService", "signal");
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining("to give an agent tools, use a service edge") });
    expect(connect("echo.text", "agent.mcpService")).toEqual({ ok: false, reason: expect.stringContaining("do not go together") });
  });

  it("says when an edge is drawn backwards", () => {
    expect(connect("agent.mcpService", "converter.mcpService")).toEqual({
      ok: false,
      reason: 'This service edge is drawn backwards: it runs from the tool-offering connector "mcpService" to the tool-consuming connector "mcpService"; draw it the other way.',
    });
  });

  it("refuses a task edge into something other than an agent's tool connector", () => {
    expect(connect("task.task", "echo.text")).toMatchObject({ ok: false });
    expect(connect("task.task", "echo.text", "task")).toEqual({ ok: false, reason: expect.stringContaining(`The input "text" is not an agent's tool connector`) });
  });

  it("refuses types that do not fit, and warns about JSON text", () => {
    expect(connect("request.status", "gate.open")).toEqual({ ok: false, reason: expect.stringContaining("the output gives a number, but the input needs true or false") });
    expect(connect("request.response", "echo.text")).toEqual({ ok: true, kind: "signal", warning: expect.stringContaining("written out as JSON text") });
  });

  it("refuses unknown nodes and handles, and a connection already made", () => {
    expect(connect("ghost.text", "echo.text")).toEqual({ ok: false, reason: expect.stringContaining('"ghost" is no node') });
    expect(connect("echo.words", "agent.prompt")).toEqual({ ok: false, reason: expect.stringContaining('has no handle "words"') });
    expect(canConnect(workflow, fixtureNodeTypes, { source: "echo", sourceHandle: null, target: "agent", targetHandle: "prompt" })).toMatchObject({ ok: false });
    expect(connect("start.question", "agent.prompt")).toEqual({ ok: false, reason: 'These two handles are already joined by edge "existing".' });
  });

  it("refuses to close a loop that nothing can stop, but allows a conditional way back", () => {
    expect(connect("echo.text", "echo.text")).toEqual({ ok: false, reason: expect.stringContaining('close a loop through "echo" that nothing can stop') });
    const loop = { ...workflow, edges: [...workflow.edges, edge("signal", "agent.answer", "check.text")] };
    expect(canConnect(loop, fixtureNodeTypes, { source: "check", sourceHandle: "retry", target: "agent", targetHandle: "prompt" })).toEqual({ ok: true, kind: "signal" });
  });
});
