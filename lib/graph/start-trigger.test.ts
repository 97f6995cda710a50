import { describe, expect, it } from "vitest";
import { builtinNodeType } from "./builtin-nodes";
import { fixtureNodeTypes } from "../../testing/graph/node-types.fixture";
import { fieldsInputSchema } from "./input-fields";
import { nodePorts } from "./node-type-info";
import { validateRunInput } from "./run-input";
import { startFields, startSchedule } from "./start-trigger";
import { validateWorkflow } from "./validate";
import type { Workflow } from "./workflow";

const start = builtinNodeType("start")!;
const outputsOf = (config: Record<string, unknown>) => nodePorts({ config }, start).outputs.map((port) => [port.name, port.type]);
const startWorkflow = (config: Record<string, unknown>): Workflow => ({
  version: 1,
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config },
    { id: "done", type: "end", position: { x: 200, y: 0 }, config: {} },
  ],
  edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "tick", target: "done", targetHandle: "result" }],
} as unknown as Workflow);

describe("the Start's trigger", () => {
  it("is manual by default and keeps its input fields", () => {
    expect(outputsOf({ inputs: [{ name: "question" }] })).toEqual([["question", "string"], ["started", "signal"]]);
    expect(outputsOf({ trigger: "manual", inputs: [{ name: "question" }] })).toEqual([["question", "string"], ["started", "signal"]]);
  });

  it("on a webhook puts out body, headers, query and deliveryId, whatever input fields are left", () => {
    expect(outputsOf({ trigger: "webhook", inputs: [{ name: "question" }] })).toEqual([
      ["body", "any"],
      ["headers", "object"],
      ["query", "object"],
      ["deliveryId", "string"],
      ["started", "signal"],
    ]);
  });

  it("on a schedule puts out tick", () => {
    expect(outputsOf({ trigger: "schedule", cron: "* * * * *" })).toEqual([["tick", "string"], ["started", "signal"]]);
  });

  it("decides what a run's input is checked against", () => {
    const webhook = startWorkflow({ trigger: "webhook" });
    expect(validateRunInput(webhook, { body: "text", headers: {}, query: {}, deliveryId: "d-1" }).ok).toBe(true);
    expect(validateRunInput(webhook, { body: [1, 2] }).ok).toBe(true);
    expect(validateRunInput(webhook, { headers: "x", question: "q" })).toMatchObject({
      ok: false,
      problems: [
        { code: "input-type", field: "input.headers" },
        { code: "input-unknown", field: "input.question", message: expect.stringContaining('"body", "headers", "query", "deliveryId"') },
      ],
    });
    expect(validateRunInput(startWorkflow({ trigger: "schedule", cron: "* * * * *" }), { tick: "2026-01-01T00:00:00.000Z" }).ok).toBe(true);
    expect(validateRunInput(startWorkflow({ inputs: [{ name: "question", required: true }] }), {})).toMatchObject({ ok: false, problems: [{ field: "input.question" }] });
  });

  it("gives a field of any type no type in the input schema", () => {
    expect(fieldsInputSchema(startFields({ trigger: "webhook" })).properties.body).toEqual({ description: expect.any(String) });
  });

  it("reads the schedule from the flat settings", () => {
    expect(startSchedule({ trigger: "schedule", cron: "*/2 * * * * *" })).toEqual({ cron: "*/2 * * * * *", timezone: "UTC", missed: "run-latest" });
    expect(startSchedule({ trigger: "schedule", everyMinutes: 5, cron: "", timezone: "Europe/Berlin", missed: "skip" })).toEqual({ everyMinutes: 5, timezone: "Europe/Berlin", missed: "skip" });
    expect(startSchedule({ trigger: "webhook", cron: "* * * * *" })).toBeNull();
  });
});

describe("the Start's trigger settings", () => {
  it("check each setting and name it", () => {
    expect(start.checkConfig!({ trigger: "webhook", signature: "github", respond: "when-done", respondTimeoutSeconds: 60, maxBodyKilobytes: 2048 })).toEqual([]);
    expect(start.checkConfig!({ trigger: "webhook", signature: "md5", respondTimeoutSeconds: 301 }).map((issue) => issue.field)).toEqual(["signature", "respondTimeoutSeconds"]);
    expect(start.checkConfig!({ trigger: "sometimes" }).map((issue) => issue.field)).toEqual(["trigger"]);
  });

  it("refuse a schedule that does not check, naming the field", () => {
    expect(start.checkConfig!({ trigger: "schedule", cron: "61 * * * *" })).toEqual([{ field: "cron", message: expect.stringContaining("Invalid value for minute: 61") }]);
    expect(start.checkConfig!({ trigger: "schedule", cron: "* * * * *", timezone: "Nowhere/Town" })).toEqual([{ field: "timezone", message: expect.stringContaining("no IANA time zone") }]);
    expect(start.checkConfig!({ trigger: "schedule" })).toEqual([{ field: "cron", message: expect.stringContaining("give a cron expression") }]);
    expect(start.checkConfig!({ trigger: "schedule", everyMinutes: 2.5 }).map((issue) => issue.field)).toEqual(["everyMinutes"]);
    expect(start.checkConfig!({ trigger: "manual", cron: "61 * * * *" })).toEqual([]);
  });

  it("make an invalid schedule a graph error naming the setting", () => {
    const problems = validateWorkflow(startWorkflow({ trigger: "schedule", cron: "0 25 * * *" }), fixtureNodeTypes);
    expect(problems).toEqual([
      expect.objectContaining({ code: "config-invalid", nodeId: "start", field: "config.cron", severity: "error", message: expect.stringMatching(/^Cron expression: "0 25 \* \* \*" is not a valid cron expression: Invalid value for hour: 25/) }),
    ]);
    expect(validateWorkflow(startWorkflow({ trigger: "schedule", cron: "0 9 * * 1-5", timezone: "Europe/Berlin" }), fixtureNodeTypes)).toEqual([]);
  });

  it("show each trigger's settings only under it, in the inspector's order", () => {
    const properties = start.configSchema.properties as Record<string, Record<string, unknown>>;
    expect(start["ui:order"]?.[0]).toBe("trigger");
    expect(properties.trigger).toMatchObject({ default: "manual", enum: ["manual", "webhook", "schedule"], enumNames: expect.any(Array) });
    expect(properties.signature).toMatchObject({ default: "standard-webhooks", "ui:dependencies": { trigger: "webhook" } });
    expect(properties.respondTimeoutSeconds).toMatchObject({ default: 30, minimum: 1, maximum: 300 });
    expect(properties.maxBodyKilobytes).toMatchObject({ default: 1024 });
    expect(properties.cron).toMatchObject({ type: "string", "ui:dependencies": { trigger: "schedule" } });
    expect(properties.missed).toMatchObject({ default: "run-latest", enum: ["run-latest", "skip"] });
    expect(properties.inputs).toMatchObject({ "ui:dependencies": { trigger: "manual" } });
  });
});
