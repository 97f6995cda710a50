/** What is wrong with a tool definition or a tool source, as a stable code. */
export type ToolDefinitionProblem =
  | "invalid-name"
  | "builtin-name"
  | "missing-description"
  | "invalid-parameters"
  | "invalid-execute"
  | "invalid-timeout"
  | "duplicate-name"
  | "invalid-tool-source";

/**
 * A tool defined or declared wrongly: the author's mistake, raised where it
 * is made (at `defineTool()`, at registration, at the authoring boundary),
 * never mid-run. `field` names the spec field or the list position at fault.
 *
 * @example
 * try { defineTool({ name: "save_to_memory", ... }) } catch (error) { error.code === "builtin-name" }
 */
export class ToolDefinitionError extends Error {
  override name = "ToolDefinitionError";
  constructor(
    readonly code: ToolDefinitionProblem,
    message: string,
    readonly place: { tool?: string; field?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
