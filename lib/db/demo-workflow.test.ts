import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueNodeTypes } from "../graph/manifest-node-type";
import { validateWorkflow } from "../graph/validate";
import { parseWorkflow } from "../graph/workflow";
import { lintNodes } from "../manifest";
import { demoWorkflow } from "./demo-workflow";

describe("the demo workflow seeded into a fresh database", () => {
  it("parses as a workflow document and validates against nodes/ without a problem", async () => {
    const parsed = parseWorkflow(JSON.parse(JSON.stringify(demoWorkflow.document)));
    if (!parsed.ok) throw new Error(parsed.problems.map((problem) => problem.message).join("\n"));
    const catalogue = await lintNodes(path.join(import.meta.dirname, "..", "..", "nodes"));
    expect(validateWorkflow(parsed.workflow, catalogueNodeTypes(catalogue))).toEqual([]);
  });
});
