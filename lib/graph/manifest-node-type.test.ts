// Integration: the graph over the real nodes/ catalogue. Only this test reaches into lib/manifest and lib/db;
// lib/graph's own modules import nothing of ours at run time.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoWorkflow } from "../db/demo-workflow";
import { lintNodes } from "../manifest";
import { checkArguments } from "../manifest/json-schema-check";
import { canConnect } from "./can-connect";
import { edge, node, workflowOf } from "../../testing/graph/node-types.fixture";
import { catalogueNodeTypes } from "./manifest-node-type";
import { createRunState } from "./run-state";
import { validateWorkflow } from "./validate";
import type { ConfigValidator } from "./validation-context";
import { parseWorkflow } from "./workflow";

const validateConfig: ConfigValidator = (schema, value) => {
  const checked = checkArguments(schema, value);
  return checked.ok ? null : checked.message;
};

describe("the graph over nodes/", async () => {
  const catalogue = await lintNodes(path.resolve(import.meta.dirname, "../../nodes"));
  const nodeTypes = catalogueNodeTypes(catalogue);

  it("reads ports, connectors, agents and config schemas from the manifests", () => {
    expect(nodeTypes("offline-agent")).toMatchObject({
      hasToolExchange: true,
      inputs: [expect.objectContaining({ name: "prompt", type: "string", required: true })],
      serviceConnectors: [expect.objectContaining({ name: "mcpService", isService: false })],
    });
    expect(nodeTypes("unit-converter")).toMatchObject({ hasToolExchange: false, inputs: [], serviceConnectors: [expect.objectContaining({ isService: true })] });
    expect(nodeTypes("http-request")?.configSchema?.required).toEqual(["baseUrl", "method"]);
    expect(nodeTypes("nope")).toBeUndefined();
  });

  it("finds nothing wrong in the demo workflow, and never plans its converter", () => {
    const parsed = parseWorkflow(demoWorkflow.document);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(validateWorkflow(parsed.workflow, nodeTypes, { validateConfig })).toEqual([]);
    expect(createRunState(parsed.workflow, nodeTypes).graph.order).not.toContain("converter");
  });

  it("checks config with the injected JSON Schema checker and names the field", () => {
    const workflow = workflowOf([node("request", "http-request", { baseUrl: "ftp://example.com", method: "FETCH" })]);
    const problems = validateWorkflow(workflow, nodeTypes, { validateConfig }).filter((problem) => problem.code === "config-invalid");
    expect(problems.map((problem) => problem.field)).toEqual(expect.arrayContaining(["config.baseUrl", "config.method"]));
  });

  it("refuses two agents joined by a service edge", () => {
    const workflow = workflowOf([node("a", "offline-agent"), node("b", "offline-agent")], [edge("signal", "a.answer", "b.prompt")]);
    expect(canConnect(workflow, nodeTypes, { source: "a", sourceHandle: "mcpService", target: "b", targetHandle: "mcpService" })).toEqual({
      ok: false,
      reason: "A service edge joins a tool provider to an agent; both ends here consume tools.",
    });
  });
});
