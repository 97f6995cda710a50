import { z } from "zod";
import { declaredToolName } from "../graph";
import type { ToolOutcome } from "./agent-tool";
import { isBuiltinToolName } from "./builtin/builtin-names";
import { parseToolArguments } from "./tool-arguments";
import { ToolDefinitionError } from "./tool-definition-error";
import { toolInputSchema } from "./tool-input-schema";
import { raceTimeout } from "./tool-timeout";

/** The per-call timeout when a definition gives none. */
export const defaultToolTimeoutMs = 30_000;

/** Who is calling a custom tool: the run, the agent node and the model's call. */
export interface ToolCallContext {
  runId: string;
  nodeId: string;
  nodeRunId: string;
  /** The model's id for this call. */
  callId: string;
  /** The run's signal; aborts when the run is cancelled. */
  signal?: AbortSignal;
}

/** What a custom tool's `execute` receives besides its arguments. */
export interface ToolExecutionContext extends ToolCallContext {
  /** Aborts when this call times out or the run is cancelled: pass it on to fetches and the like. */
  signal: AbortSignal;
}

/** What `defineTool` accepts. */
export interface DefinedToolSpec<S extends z.ZodType = z.ZodType> {
  /** Referred to from graphs: letters, digits, - and _; never a built-in's name. */
  name: string;
  /** Shown to the model: what the tool does and when to use it. */
  description: string;
  /** The arguments, parsed on every call; an object schema (`z.object`). */
  parameters: S;
  /** The implementation; gets the parsed arguments. Its value is the result (a string as is, anything else as JSON). */
  execute(args: z.output<S>, context: ToolExecutionContext): unknown;
  /** Results come from outside content (a fetch, a user's document): taint-track them. Default false. */
  taints?: boolean;
  /** Per-call timeout in ms; default 30000, 0 disables it. */
  timeoutMs?: number;
  /** Calling twice with the same arguments does no more than once (or changes nothing): a call caught by a crash runs again on resume instead of waiting for a person. Default false. */
  idempotent?: boolean;
  /** The tool changes nothing (a lookup, a read): approval policies let tainted arguments into it. Default false. */
  readOnly?: boolean;
  /** The tool destroys or overwrites something (a delete, a payment): approval policies ask before every call by default. Default false. */
  destructive?: boolean;
}

/** A call's outcome, and whether `execute` itself ran to an end (returned or threw). */
export interface DefinedToolOutcome extends ToolOutcome {
  /** False when the arguments were refused, the call timed out or was cancelled: no result of the tool's came back. */
  ran: boolean;
}

const definedToolBrand = Symbol.for("switchboard.defined-tool");

/** A checked tool definition, ready to register on a run. Serializes to nothing a graph could hold: graphs refer to it by name. */
export interface DefinedTool {
  readonly [definedToolBrand]: true;
  readonly name: string;
  readonly description: string;
  /** The JSON Schema (draft-7, input side) of the parameters: what the model sees. */
  readonly inputSchema: Record<string, unknown>;
  readonly taints: boolean;
  readonly timeoutMs: number;
  readonly idempotent: boolean;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  /** Parses the arguments, runs the implementation against the timeout. Never throws: every failure is an error result. */
  execute(args: unknown, context: ToolCallContext): Promise<DefinedToolOutcome>;
}

export function isDefinedTool(value: unknown): value is DefinedTool {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[definedToolBrand] === true;
}

/**
 * Defines a custom tool. The spec is checked now, not mid-run: a bad name,
 * a built-in's name, a missing description, parameters that are not a zod
 * object schema or a bad timeout throw ToolDefinitionError. The tool parses
 * its arguments on every call (invalid ones come back to the model as an
 * error result naming the field) and races each call against its timeout.
 *
 * @example
 * const lookupOrder = tool({
 *   name: "lookup_order",
 *   description: "Fetch an order by id from the shop",
 *   parameters: z.object({ orderId: z.string() }),
 *   execute: async ({ orderId }) => orders.find(orderId),
 * });
 */
export function defineTool<S extends z.ZodType>(spec: DefinedToolSpec<S>): DefinedTool {
  const name = checkName(spec?.name);
  const place = { tool: name };
  if (typeof spec.description !== "string" || spec.description.trim() === "") {
    throw new ToolDefinitionError("missing-description", `tool '${name}' needs a description: the model reads it to decide when to call the tool`, { ...place, field: "description" });
  }
  if (typeof spec.execute !== "function") throw new ToolDefinitionError("invalid-execute", `tool '${name}': execute must be a function`, { ...place, field: "execute" });
  const timeoutMs = spec.timeoutMs ?? defaultToolTimeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0) {
    throw new ToolDefinitionError("invalid-timeout", `tool '${name}': timeoutMs must be a whole number of ms, 0 (no timeout) or more; got ${String(spec.timeoutMs)}`, { ...place, field: "timeoutMs" });
  }
  if (spec.taints !== undefined && typeof spec.taints !== "boolean") {
    throw new ToolDefinitionError("invalid-parameters", `tool '${name}': taints must be true or false`, { ...place, field: "taints" });
  }
  const inputSchema = parametersSchema(name, spec.parameters);
  const definition: DefinedTool = {
    [definedToolBrand]: true,
    name,
    description: spec.description,
    inputSchema,
    taints: spec.taints ?? false,
    timeoutMs,
    idempotent: spec.idempotent === true,
    readOnly: spec.readOnly === true,
    destructive: spec.destructive === true,
    execute: (args, context) => executeDefined(spec, timeoutMs, args, context),
  };
  return Object.freeze(definition);
}

/** The terse alias of defineTool, the same function. */
export const tool = defineTool;

function checkName(name: unknown): string {
  if (typeof name !== "string" || !declaredToolName.safeParse(name).success) {
    throw new ToolDefinitionError("invalid-name", `tool name ${JSON.stringify(name)} is not valid: use letters, digits, - and _ (at most 64)`, { field: "name" });
  }
  if (isBuiltinToolName(name)) {
    throw new ToolDefinitionError("builtin-name", `tool name '${name}' is taken by a built-in tool; choose another name`, { tool: name, field: "name" });
  }
  return name;
}

function parametersSchema(name: string, parameters: unknown): Record<string, unknown> {
  if (!(parameters instanceof z.ZodType)) {
    throw new ToolDefinitionError("invalid-parameters", `tool '${name}': parameters must be a zod schema, e.g. z.object({ ... })`, { tool: name, field: "parameters" });
  }
  try {
    return toolInputSchema(parameters);
  } catch (error) {
    throw new ToolDefinitionError("invalid-parameters", `tool '${name}': ${(error as Error).message}`, { tool: name, field: "parameters" }, { cause: error });
  }
}

async function executeDefined<S extends z.ZodType>(spec: DefinedToolSpec<S>, timeoutMs: number, args: unknown, context: ToolCallContext): Promise<DefinedToolOutcome> {
  const parsed = parseToolArguments(spec.parameters, args, spec.name);
  if (!parsed.ok) return { output: parsed.message, isError: true, ran: false };
  const timed = await raceTimeout((signal) => spec.execute(parsed.value, { ...context, signal }), { timeoutMs, signal: context.signal });
  switch (timed.kind) {
    case "timed-out":
      return { output: `${spec.name} timed out after ${timeoutMs} ms`, isError: true, ran: false };
    case "cancelled":
      return { output: `${spec.name} was cancelled: the run was stopped`, isError: true, ran: false };
    case "threw":
      return { output: `${spec.name} failed: ${messageOf(timed.error)}`, isError: true, ran: true };
    case "done":
      return { ...resultOutcome(spec.name, timed.value), ran: true };
  }
}

/** A string result as is; anything else as JSON, with plain objects also as the structured result. */
function resultOutcome(name: string, value: unknown): ToolOutcome {
  if (typeof value === "string") return { output: value, isError: false };
  let text: string | undefined;
  try {
    text = JSON.stringify(value ?? null);
  } catch (error) {
    return { output: `${name} returned a value that is not JSON: ${messageOf(error)}`, isError: true };
  }
  const structured = typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  return { output: text ?? "null", isError: false, ...(structured ? { structured } : {}) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
