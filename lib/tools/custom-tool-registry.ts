import { type DefinedTool, isDefinedTool } from "./define-tool";
import { ToolDefinitionError } from "./tool-definition-error";

/**
 * The custom tools a run may use, by name: the implementations behind
 * `{ type: "custom", name }` sources. Two different tools under one name
 * throw at construction; the same definition listed twice counts once.
 *
 * @example
 * const customTools = new CustomToolRegistry([lookupOrder, fetchPage]);
 * await runWorkflow({ ..., env: { ...env, customTools } });
 */
export class CustomToolRegistry {
  private readonly byName = new Map<string, DefinedTool>();

  constructor(tools: Iterable<DefinedTool> = []) {
    let index = 0;
    for (const tool of tools) {
      if (!isDefinedTool(tool)) {
        throw new ToolDefinitionError("invalid-tool-source", `tools[${index}] is not a defineTool() result`, { field: `tools.${index}` });
      }
      const existing = this.byName.get(tool.name);
      if (existing && existing !== tool) {
        throw new ToolDefinitionError("duplicate-name", `two custom tools are named '${tool.name}'; tool names must be unique on a run`, { tool: tool.name, field: `tools.${index}` });
      }
      this.byName.set(tool.name, tool);
      index++;
    }
  }

  get(name: string): DefinedTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
