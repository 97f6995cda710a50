import { describe, expect, it } from "vitest";
import { builtinNodeType } from "@/lib/graph";
import type { JsonSchema } from "@/lib/manifest/schemas/json-schema";
import { orderedProperties, shownProperties } from "./config-value";

const start = builtinNodeType("start")!;
const startSettings = (config: Record<string, unknown>) =>
  shownProperties(orderedProperties(start.configSchema as unknown as JsonSchema, start["ui:order"]), config).map(([name]) => name);

describe("shownProperties", () => {
  it("shows a Start's input fields by hand, and each trigger's own settings under it", () => {
    expect(startSettings({})).toEqual(["trigger", "inputs"]);
    expect(startSettings({ trigger: "webhook" })).toEqual(["trigger", "signature", "respond", "respondTimeoutSeconds", "maxBodyKilobytes"]);
    expect(startSettings({ trigger: "schedule", cron: "* * * * *" })).toEqual(["trigger", "cron", "everyMinutes", "timezone", "missed"]);
  });

  it("keeps properties without dependencies", () => {
    const properties: [string, JsonSchema][] = [["a", { type: "string" }], ["b", { type: "string", "ui:dependencies": { a: "x" } }]];
    expect(shownProperties(properties, {}).map(([name]) => name)).toEqual(["a"]);
    expect(shownProperties(properties, { a: "x" }).map(([name]) => name)).toEqual(["a", "b"]);
  });
});
