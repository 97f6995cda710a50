import { describe, expect, it } from "vitest";
import { node, titledTaskStart } from "../../testing/graph/node-types.fixture";
import { taskToolDefinition, toolName } from "./task-tool";

describe("taskToolDefinition", () => {
  it("offers a titled Task Start as a tool taking its fields", () => {
    const taskStart = titledTaskStart("research");
    taskStart.config.whenToUse = "The answer needs sources.";
    expect(taskToolDefinition(taskStart)).toEqual({
      name: "research_a_topic",
      title: "Research a topic",
      description: "Finds facts about a topic and returns them.\n\nWhen to use: The answer needs sources.",
      inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"], additionalProperties: false },
    });
  });

  it("offers nothing without a title and a description", () => {
    expect(taskToolDefinition(node("t", "task-start", { title: "Research" }))).toBeUndefined();
    expect(taskToolDefinition(node("t", "start", { title: "A", description: "B" }))).toBeUndefined();
  });

  it("makes tool names models accept", () => {
    expect(toolName("Résumé: 2 Pages!")).toBe("resume_2_pages");
    expect(toolName("42 things")).toBe("task_42_things");
    expect(toolName("x".repeat(80))).toHaveLength(64);
  });
});
