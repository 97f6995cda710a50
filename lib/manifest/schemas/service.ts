import { z } from "zod";
import { call } from "./call";
import { identifier } from "./interface";
import { objectSchema } from "./json-schema";
import { approvalPolicy } from "./approval-policy";

export const toolAnnotations = z.strictObject({
  readOnlyHint: z.boolean().optional().meta({ description: "The tool changes nothing." }),
  destructiveHint: z.boolean().optional().meta({ description: "The tool may delete or overwrite." }),
  idempotentHint: z.boolean().optional().meta({ description: "Calling twice with the same arguments does no more than once." }),
  openWorldHint: z.boolean().optional().meta({ description: "The tool reaches outside systems." }),
});

/** One method of api/service.yaml, offered as one MCP tool. */
export const serviceMethod = z.strictObject({
  description: z.string().trim().min(1, "a method needs a description: the text the model reads to pick the tool").meta({ description: "The tool's selection text: what it achieves and what it returns, not how it works." }),
  inputs: objectSchema.meta({ description: "The JSON Schema of the tool's parameters, checked on every call." }),
  outputSchema: objectSchema.optional().meta({ description: "The JSON Schema of the result; the result is then returned as structuredContent plus a text block." }),
  annotations: toolAnnotations.optional().meta({ description: "MCP tool hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint." }),
  readOnly: z.boolean().optional().meta({ description: "The method changes nothing (a read): safe to retry and to run again when a run resumes." }),
  idempotent: z.boolean().optional().meta({ description: "Calling it twice with the same arguments does no more than once (e.g. it checks before it creates)." }),
  approval: z
    .union([z.enum(["allow", "ask", "deny"]), approvalPolicy])
    .optional()
    .meta({ description: "The method's default approval policy (allow, ask, deny, or rules); the agent node's `approvals` or the edge's `approval` override it. Absent: the workflow default (tainted arguments into a method that is not readOnlyHint ask)." }),
  calls: z.array(call).default([]).meta({ description: "The HTTP calls the method makes, in order; none for a pure computation. None may stream." }),
  returns: z.unknown().optional().meta({ description: "The result: a `return` expression over response, calls, params and config (never credentials), or a value returned as written. Default: the last call's reply." }),
});
export type ServiceMethod = z.infer<typeof serviceMethod>;

/** api/service.yaml: method name → method. */
export const serviceManifest = z.record(identifier, serviceMethod);
export type ServiceManifest = z.infer<typeof serviceManifest>;

