import { z } from "zod";
import { runOriginKinds, runStatuses, type RunOrigin } from "../run-model";

/** The API's named schemas: the components of the OpenAPI document. */
export const apiSchemas = z.registry<{ id: string; description?: string }>();

/**
 * The HTTP API's messages, as zod schemas: the routes parse and answer
 * with them, and the OpenAPI document (openapi.ts) is generated from them,
 * so the two cannot drift.
 */

export const startRunBody = z
  .strictObject({
    input: z
      .record(z.string(), z.unknown())
      .default({})
      .meta({ description: "One property per input field of the workflow's Start node.", examples: [{ question: "Convert 26.2 mile to kilometre" }] }),
  })
  .register(apiSchemas, { id: "StartRunBody", description: "What to run the workflow with." });

export const runLinks = z
  .strictObject({
    self: z.string().meta({ description: "GET: where the run stands." }),
    events: z.string().meta({ description: "GET: its progress as Server-Sent Events." }),
    cancel: z.string().meta({ description: "POST: asks it to stop." }),
    trace: z.string().meta({ description: "The run's trace in the app." }),
  })
  .register(apiSchemas, { id: "RunLinks" });

export const runStatus = z.enum(runStatuses).register(apiSchemas, { id: "RunStatus", description: "queued → running → completed | failed | cancelled; needs-attention while it waits for a person." });

export const runOrigin = z
  .looseObject({ kind: z.enum(runOriginKinds as [string, ...string[]]), by: z.string().optional() })
  .register(apiSchemas, { id: "RunOrigin", description: "How the run started (canvas, cli, api, webhook, schedule, mcp-host, fork, test) and who or what started it." });

export const startRunAnswer = z
  .strictObject({
    runId: z.string(),
    status: runStatus,
    links: runLinks,
  })
  .register(apiSchemas, { id: "StartRunAnswer" });

export const runAnswer = z
  .looseObject({
    runId: z.string(),
    workflowId: z.string().nullable(),
    status: runStatus,
    outputs: z.record(z.string(), z.unknown()).meta({ description: "The End node's outputs once the run completed (`result`)." }),
    error: z.string().nullable(),
    origin: runOrigin.nullable(),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    links: runLinks,
  })
  .register(apiSchemas, { id: "Run", description: "Where a run stands. The trace page's first answer comes with it (node runs, totals, first calls)." });

export const cancelRunAnswer = z
  .strictObject({
    runId: z.string(),
    cancel: z.enum(["cancelled", "requested"]).meta({ description: "cancelled: it had not started or was waiting; requested: its worker stops it within about a second." }),
  })
  .register(apiSchemas, { id: "CancelRunAnswer" });

export const apiErrorAnswer = z
  .strictObject({
    error: z.string().meta({ description: "What is wrong, in plain words." }),
    field: z.string().optional().meta({ description: "The field at fault, e.g. `input.question`." }),
  })
  .register(apiSchemas, { id: "Error" });

export type StartRunBody = z.infer<typeof startRunBody>;
export type StartRunAnswer = z.infer<typeof startRunAnswer>;
export type RunAnswer = z.infer<typeof runAnswer>;

/** The links of a run, from the app's base URL (or relative). */
export function linksOf(runId: string, base = ""): z.infer<typeof runLinks> {
  const id = encodeURIComponent(runId);
  return { self: `${base}/api/runs/${id}`, events: `${base}/api/runs/${id}/events`, cancel: `${base}/api/runs/${id}/cancel`, trace: `${base}/runs/${id}` };
}

/** A run's state as the API answers it. */
export function runAnswerOf(state: { runId: string; workflowId: string | null; status: z.infer<typeof runStatus>; outputs: Record<string, unknown>; error: string | null; origin: RunOrigin | null; startedAt: string; endedAt: string | null }): RunAnswer {
  return { ...state, links: linksOf(state.runId) };
}

/** The first problem of a body that does not parse, as `{ error, field }`. */
export function bodyProblem(error: z.ZodError): { error: string; field?: string } {
  const [issue] = error.issues;
  const field = issue?.path.length ? issue.path.join(".") : undefined;
  return { error: issue ? `${field ? `${field}: ` : ""}${issue.message}` : "The body is not valid.", ...(field ? { field } : {}) };
}
