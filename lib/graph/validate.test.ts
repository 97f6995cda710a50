import { describe, expect, it } from "vitest";
import { readConfigMessage } from "./config-rules";
import { edge, fixtureNodeTypes, node, questionStart, titledTaskStart, workflowOf } from "../../testing/graph/node-types.fixture";
import type { GraphProblem } from "./graph-problem";
import { validateWorkflow } from "./validate";
import type { ConfigValidator } from "./validation-context";
import type { Workflow } from "./workflow";
import { researchTask, retryLoop } from "../../testing/graph/workflows.fixture";

/** Test double: checks `required` and `maximum` only, answering in checkArguments' words. */
const validateConfig: ConfigValidator = (schema, value) => {
  const messages: string[] = [];
  for (const name of schema.required ?? []) if (!(name in value)) messages.push(`arguments must have required property '${name}'`);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const given = value[name];
    if (typeof given === "number" && property.maximum !== undefined && given > property.maximum) messages.push(`/${name} must be <= ${property.maximum}`);
  }
  return messages.length > 0 ? messages.join("; ") : null;
};

const validate = (workflow: Workflow) => validateWorkflow(workflow, fixtureNodeTypes, { validateConfig });
const withCode = (workflow: Workflow, code: string) => validate(workflow).filter((problem) => problem.code === code);
const codes = (problems: GraphProblem[]) => problems.map((problem) => problem.code);

const research = researchTask("research");
/** Everything at once, and nothing wrong with it. */
const complete = workflowOf(
  [questionStart, node("agent", "agent", { maxTurns: 5 }), node("converter", "converter"), node("end", "end"), ...research.nodes, node("research-end", "task-end")],
  [
    edge("signal", "start.question", "agent.prompt"),
    edge("signal", "agent.answer", "end.result"),
    edge("service", "converter.mcpService", "agent.mcpService"),
    ...research.edges,
    edge("signal", "researcher.answer", "research-end.result"),
  ],
);

describe("validateWorkflow", () => {
  it("finds nothing wrong in a complete workflow", () => {
    expect(validate(complete)).toEqual([]);
  });

  it("unknown-node-type: a type neither in nodes/ nor built in, and nothing more about its edges", () => {
    const workflow = workflowOf([node("x", "nope"), node("echo", "echo"), node("end", "end")], [edge("signal", "x.out", "echo.text"), edge("signal", "echo.text", "end.result")]);
    expect(validate(workflow)).toEqual([
      expect.objectContaining({ code: "unknown-node-type", nodeId: "x", field: "type", severity: "error", message: expect.stringContaining("Pick a type from the palette") }),
    ]);
    expect(withCode(workflowOf([node("x", "echo"), node("s", "start")]), "unknown-node-type")).toEqual([]);
  });

  it("duplicate-node-id and duplicate-edge-id", () => {
    const workflow = workflowOf(
      [node("a", "echo"), node("a", "echo"), node("b", "echo")],
      [edge("signal", "a.text", "b.text", "e"), edge("signal", "b.text", "a.text", "e")],
    );
    expect(withCode(workflow, "duplicate-node-id")).toEqual([expect.objectContaining({ nodeId: "a", field: "nodes.1.id", message: expect.stringContaining("2nd node") })]);
    expect(withCode(workflow, "duplicate-edge-id")).toEqual([expect.objectContaining({ edgeId: "e", field: "edges.1.id" })]);
    expect(codes(validate(workflowOf([node("a", "echo"), node("b", "echo"), node("end", "end")], [edge("signal", "a.text", "b.text"), edge("signal", "b.text", "end.result")])))).toEqual([]);
  });

  it("dangling-edge: a source or target that is no node", () => {
    const workflow = workflowOf([node("a", "echo")], [edge("signal", "a.text", "ghost.text", "out"), edge("signal", "ghost.text", "a.text", "in")]);
    expect(withCode(workflow, "dangling-edge").map((problem) => [problem.edgeId, problem.field])).toEqual([["out", "target"], ["in", "source"]]);
    expect(withCode(workflowOf([node("a", "echo"), node("b", "echo")], [edge("signal", "a.text", "b.text")]), "dangling-edge")).toEqual([]);
  });

  it("unknown-handle: on either end, listing the handles there are", () => {
    const workflow = workflowOf([node("a", "request"), node("b", "echo")], [edge("signal", "a.body", "b.text", "bad-source"), edge("signal", "a.status", "b.words", "bad-target")]);
    const problems = withCode(workflow, "unknown-handle");
    expect(problems.map((problem) => [problem.edgeId, problem.field])).toEqual([["bad-source", "sourceHandle"], ["bad-target", "targetHandle"]]);
    expect(problems[0].message).toBe('Node "a" (Request) has no handle "body": its handles on that side are "response", "status", "items".');
    expect(problems[1].message).toBe('Node "b" (Echo) has no handle "words": its handles on that side are "text".');
  });

  describe("edge-kind-mismatch", () => {
    const nodes = [node("agent", "agent"), node("agent2", "agent"), node("converter", "converter"), node("converter2", "converter"), node("echo", "echo"), titledTaskStart("task")];
    const mismatch = (...edges: Parameters<typeof edge>[]) => withCode(workflowOf([...nodes, node("task-end", "task-end")], edges.map((args) => edge(...args))), "edge-kind-mismatch");

    it("a signal edge into a service connector", () => {
      expect(mismatch(["signal", "echo.text", "agent.mcpService"])).toEqual([
        expect.objectContaining({
          field: "kind",
          message: 'A signal edge carries a value from an output port to an input port. The tool-consuming connector "mcpService" is not an input port: to give an agent tools, use a service edge.',
        }),
      ]);
    });

    it("a service edge between two consumers, or two providers", () => {
      expect(mismatch(["service", "agent.mcpService", "agent2.mcpService"])[0].message).toBe("A service edge joins a tool provider to an agent; both ends here consume tools.");
      expect(mismatch(["service", "converter.mcpService", "converter2.mcpService"])[0].message).toBe("A service edge joins a tool provider to an agent; both ends here offer tools.");
    });

    it("a service edge drawn backwards, or between ports", () => {
      expect(mismatch(["service", "agent.mcpService", "converter.mcpService"])[0].message).toMatch(/drawn backwards/);
      expect(mismatch(["service", "echo.text", "agent.prompt"])[0].message).toMatch(/^From the output "text" to the input "prompt" is a signal edge, not a service edge/);
    });

    it("a task edge that does not start at a Task Start's handle or end at a consumer", () => {
      expect(mismatch(["task", "converter.mcpService", "agent.mcpService"])[0].message).toMatch(/is a service edge, not a task edge/);
      expect(mismatch(["task", "echo.text", "agent.mcpService"])[0].message).toMatch(/The output "text" is not a Task Start's task handle: ports are joined by signal edges/);
      expect(mismatch(["task", "task.task", "echo.text"])[0].message).toMatch(/The input "text" is not an agent's tool connector/);
    });

    it("passes every well-formed kind", () => {
      expect(mismatch(["signal", "echo.text", "agent.prompt"], ["service", "converter.mcpService", "agent.mcpService"], ["task", "task.task", "agent2.mcpService"])).toEqual([]);
    });
  });

  it("signal-type-mismatch, and the warning signal-type-conversion", () => {
    const nodes = [node("request", "request", { baseUrl: "https://example.com" }), node("gate", "gate"), node("echo", "echo"), node("merge", "merge"), node("clock", "clock")];
    const problems = validate(workflowOf(nodes, [
      edge("signal", "request.status", "gate.open", "number-into-boolean"),
      edge("signal", "clock.tick", "echo.text", "signal-into-string"),
      edge("signal", "request.response", "merge.left", "object-into-string"),
      edge("signal", "request.status", "merge.right", "number-into-string"),
      edge("signal", "gate.passed", "request.trigger", "signal-into-signal"),
    ]));
    expect(problems.filter((problem) => problem.code.startsWith("signal-type")).map((problem) => [problem.code, problem.edgeId, problem.severity])).toEqual([
      ["signal-type-mismatch", "number-into-boolean", "error"],
      ["signal-type-mismatch", "signal-into-string", "error"],
      ["signal-type-conversion", "object-into-string", "warning"],
    ]);
    expect(problems[0].message).toBe('Output "status" of "request" into input "open" of "gate": the output gives a number, but the input needs true or false. Join an output to an input that takes what it gives, or put a node between them that converts the value.');
  });

  it("required-input-unconnected: a warning on the node, naming the input", () => {
    const lonely = workflowOf([node("merge", "merge"), node("echo", "echo")], [edge("signal", "echo.text", "merge.left")]);
    expect(withCode(lonely, "required-input-unconnected")).toEqual([
      expect.objectContaining({ nodeId: "merge", field: "inputs.right", severity: "warning" }),
    ]);
    const fed = workflowOf([questionStart, node("merge", "merge")], [edge("signal", "start.question", "merge.left"), edge("signal", "start.question", "merge.right")]);
    expect(withCode(fed, "required-input-unconnected")).toEqual([]);
  });

  it("config-invalid: each failing setting, by field, for manifest nodes and built-ins", () => {
    const workflow = workflowOf(
      [node("agent", "agent", { maxTurns: 50 }), node("request", "request"), node("start", "start", { inputs: [{ name: "a b" }] })],
      [edge("signal", "request.body", "agent.prompt")],
    );
    expect(withCode(workflow, "config-invalid").map((problem) => [problem.nodeId, problem.field, problem.severity])).toEqual([
      ["agent", "config.maxTurns", "error"],
      ["request", "config.baseUrl", "error"],
      ["start", "config.inputs.0.name", "error"],
    ]);
    expect(withCode(workflow, "config-invalid")[0].message).toBe('Max turns must be at most 20 (node "agent"). Change it in the inspector.');
    expect(withCode(workflow, "config-invalid")[1].message).toBe('Base URL is required (node "request"). Change it in the inspector.');
    expect(withCode(workflowOf([node("agent", "agent", { maxTurns: 20 }), node("request", "request", { baseUrl: "https://x" })]), "config-invalid")).toEqual([]);
  });

  it("node-unconnected: a node no edge touches is a warning, and its config errors are warnings too", () => {
    const workflow = workflowOf([questionStart, node("agent", "agent"), node("end", "end"), node("request", "request")], [
      edge("signal", "start.question", "agent.prompt"),
      edge("signal", "agent.answer", "end.result"),
    ]);
    const problems = validate(workflow);
    expect(problems.filter((problem) => problem.nodeId === "request").map((problem) => [problem.code, problem.severity])).toEqual([
      ["config-invalid", "warning"],
      ["node-unconnected", "warning"],
    ]);
    expect(problems.find((problem) => problem.code === "config-invalid")?.message).toContain("It is not connected, so it does not stop a run.");
    expect(problems.some((problem) => problem.severity === "error")).toBe(false);
    // A Start alone is a workflow, not a leftover.
    expect(withCode(workflowOf([questionStart]), "node-unconnected")).toEqual([]);
  });

  it("outputs-reach-nothing: an agent whose answer no edge takes anywhere is a warning naming what is lost", () => {
    const noEnd = workflowOf([questionStart, node("agent", "agent")], [edge("signal", "start.question", "agent.prompt")]);
    expect(withCode(noEnd, "outputs-reach-nothing")).toEqual([
      { code: "outputs-reach-nothing", nodeId: "agent", severity: "warning", message: 'What "agent" produces is lost: nothing takes its output "answer" anywhere, so the run ends without it. Add an End and connect one to it.' },
    ]);
    const withEnd = workflowOf([questionStart, node("agent", "agent"), node("end", "end")], [edge("signal", "start.question", "agent.prompt")]);
    expect(withCode(withEnd, "outputs-reach-nothing")[0].message).toContain("Connect one to the End");
    const wired = workflowOf([questionStart, node("agent", "agent"), node("end", "end")], [edge("signal", "start.question", "agent.prompt"), edge("signal", "agent.answer", "end.result")]);
    expect(withCode(wired, "outputs-reach-nothing")).toEqual([]);
    // A node no edge touches has its own warning (node-unconnected), not this one.
    expect(withCode(workflowOf([questionStart, node("agent", "agent")]), "outputs-reach-nothing")).toEqual([]);
  });

  it("service-unconnected: a node offering tools that no agent uses", () => {
    const workflow = workflowOf([questionStart, node("agent", "agent"), node("converter", "converter")], [edge("signal", "start.question", "agent.prompt")]);
    expect(withCode(workflow, "service-unconnected")).toEqual([expect.objectContaining({ nodeId: "converter", severity: "warning", message: expect.stringContaining("Wire its top connector") })]);
    expect(withCode(workflow, "node-unconnected")).toEqual([]);
    expect(withCode(complete, "service-unconnected")).toEqual([]);
  });

  it("config-unknown-setting: a setting the node type does not declare", () => {
    expect(withCode(workflowOf([node("agent", "agent", { temperature: 1 })]), "config-unknown-setting")).toEqual([
      expect.objectContaining({ nodeId: "agent", field: "config.temperature", severity: "warning" }),
    ]);
  });

  it("skips schema checks when no validateConfig is injected, but still checks built-ins", () => {
    const workflow = workflowOf([node("agent", "agent", { maxTurns: 50 }), node("start", "start", { inputs: "none" })]);
    const configCodes = validateWorkflow(workflow, fixtureNodeTypes).filter((problem) => problem.code.startsWith("config"));
    expect(configCodes.map((problem) => [problem.code, problem.nodeId])).toEqual([["config-invalid", "start"]]);
  });

  it("task-start-untitled: a Task Start needs a title and a description", () => {
    const untitled = workflowOf([node("task", "task-start", { title: "Research", description: "  " }), node("done", "task-end")], [edge("signal", "task.started", "done.result")]);
    expect(withCode(untitled, "task-start-untitled")).toEqual([
      {
        code: "task-start-untitled",
        message: "A Task Start needs a title and a description before it offers anything: fill in its description in the inspector.",
        nodeId: "task",
        field: "config.description",
        severity: "error",
      },
    ]);
    expect(withCode(complete, "task-start-untitled")).toEqual([]);
  });

  it("task-start-untitled fails on started → result: a signal carries no value", () => {
    const workflow = workflowOf([titledTaskStart("task"), node("done", "task-end")], [edge("signal", "task.started", "done.result")]);
    expect(codes(validate(workflow))).toEqual(["signal-type-mismatch"]);
  });

  it("task-end-unreachable: a Task Start whose sub-flow reaches no Task End", () => {
    const workflow = workflowOf([titledTaskStart("task"), node("echo", "echo"), node("done", "task-end")], [edge("signal", "task.topic", "echo.text")]);
    expect(withCode(workflow, "task-end-unreachable")).toEqual([expect.objectContaining({ nodeId: "task", severity: "error", message: expect.stringContaining("never return") })]);
    const fixed = { ...workflow, edges: [...workflow.edges, edge("signal", "echo.text", "done.result")] };
    expect(validate(fixed)).toEqual([]);
  });

  it("task-subflow-entered-from-outside: a signal from outside into a task's sub-flow", () => {
    const workflow = workflowOf(
      [questionStart, titledTaskStart("task"), node("echo", "echo"), node("done", "task-end")],
      [edge("signal", "task.topic", "echo.text"), edge("signal", "echo.text", "done.result"), edge("signal", "start.question", "echo.text", "sneaky")],
    );
    expect(validate(workflow)).toEqual([expect.objectContaining({ code: "task-subflow-entered-from-outside", nodeId: "echo", edgeId: "sneaky", severity: "warning" })]);
  });

  it("signal-loop-without-exit: a cycle of unconditional outputs", () => {
    const loop = workflowOf([node("a", "echo"), node("b", "echo")], [edge("signal", "a.text", "b.text", "ab"), edge("signal", "b.text", "a.text", "ba")]);
    expect(withCode(loop, "signal-loop-without-exit")).toEqual([
      expect.objectContaining({ nodeId: "a", edgeId: "ab", severity: "error", message: expect.stringMatching(/^Nodes "a", "b" signal each other in a loop that nothing can stop/) }),
    ]);
    const itself = workflowOf([node("a", "echo")], [edge("signal", "a.text", "a.text")]);
    expect(withCode(itself, "signal-loop-without-exit")[0].message).toMatch(/^Node "a" and itself/);
  });

  it("signal-loop-without-exit: a conditional way out does not stop an unconditional cycle", () => {
    const workflow = workflowOf(
      [node("a", "echo"), node("check", "checker"), node("end", "end")],
      [edge("signal", "a.text", "check.text"), edge("signal", "check.done", "a.text"), edge("signal", "check.done", "end.result"), edge("signal", "a.text", "a.text")],
    );
    expect(withCode(workflow, "signal-loop-without-exit")).toHaveLength(1);
  });

  it("a loop whose edge back is conditional can end", () => {
    expect(validate(retryLoop)).toEqual([]);
  });

  it("multiple-starts: every Start after the first", () => {
    const workflow = workflowOf([node("one", "start"), node("two", "start"), node("three", "start")]);
    expect(withCode(workflow, "multiple-starts").map((problem) => problem.nodeId)).toEqual(["two", "three"]);
    expect(withCode(workflowOf([node("one", "start")]), "multiple-starts")).toEqual([]);
  });

  it("duplicate-connection: the same handles joined twice", () => {
    const workflow = workflowOf([node("a", "echo"), node("b", "echo"), node("end", "end")], [edge("signal", "a.text", "b.text", "first"), edge("signal", "a.text", "b.text", "second"), edge("signal", "b.text", "end.result")]);
    expect(validate(workflow)).toEqual([expect.objectContaining({ code: "duplicate-connection", edgeId: "second", severity: "warning", message: expect.stringContaining('edge "first"') })]);
  });
});

describe("readConfigMessage", () => {
  it("names the field of each part of an ajv-style message", () => {
    expect(readConfigMessage(null)).toEqual([]);
    expect(readConfigMessage("/maxTurns must be <= 20; arguments must have required property 'baseUrl'; /headers/Accept must be string; arguments must NOT have additional properties ('colour'); must be object")).toEqual([
      { field: "maxTurns", message: "must be <= 20" },
      { field: "baseUrl", message: "must have required property 'baseUrl'" },
      { field: "headers.Accept", message: "must be string" },
      { field: "colour", message: "must NOT have additional properties ('colour')" },
      { message: "must be object" },
    ]);
  });
});
