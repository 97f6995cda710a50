import { z } from "zod";
import { identifier } from "./interface";

/** A string that is a `{{ path }}` template or a `return` expression, not a plain word. */
export const templateString = z
  .string()
  .refine((text) => text.includes("{{") || text.trimStart().startsWith("return "), {
    message: "expected a literal value, or a {{ template }} / `return` expression that gives one",
  });

/** A value that may be written literally or as a `{{ path }}` template / `return` expression. */
export function templated<T extends z.ZodType>(literal: T) {
  return z.union([literal, templateString]);
}

export const httpMethod = z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]);
export const transport = z.enum(["json", "text", "sse", "ndjson"]);
/** Transports whose reply arrives as a stream of events. */
export const streamingTransports: ReadonlySet<string> = new Set(["sse", "ndjson"]);

const template = z.string();

export const credentialScheme = z.discriminatedUnion("scheme", [
  z.strictObject({ scheme: z.literal("none").meta({ description: "No authentication." }) }),
  z.strictObject({
    scheme: z.literal("bearer").meta({ description: "Authorization: Bearer <token>; no header when the token is empty." }),
    token: template.meta({ description: "The token, e.g. `{{ credentials.openai.apiKey }}`." }),
  }),
  z.strictObject({
    scheme: z.literal("basic").meta({ description: "HTTP basic authentication." }),
    username: template.meta({ description: "The user name, e.g. `{{ credentials.service.username }}`." }),
    password: template.meta({ description: "The password, e.g. `{{ credentials.service.password }}`." }),
  }),
  z.strictObject({
    scheme: z.literal("apiKeyHeader").meta({ description: "The key in a request header." }),
    header: z.string().meta({ description: "The header's name, e.g. x-api-key." }),
    value: template.meta({ description: "The key, e.g. `{{ credentials.service.apiKey }}`." }),
  }),
  z.strictObject({
    scheme: z.literal("apiKeyQuery").meta({ description: "The key in a query parameter." }),
    param: z.string().meta({ description: "The query parameter's name." }),
    value: template.meta({ description: "The key, e.g. `{{ credentials.service.apiKey }}`." }),
  }),
]);
export type CredentialScheme = z.infer<typeof credentialScheme>;

export const retryPolicy = z.strictObject({
  attempts: z.number().int().min(1).max(10).meta({ description: "How many tries in all, the first included." }),
  backoff: z.enum(["exponential", "fixed"]).default("exponential").meta({ description: "How the wait grows between tries." }),
  delayMs: z.number().int().min(0).max(60_000).default(500).meta({ description: "The first wait, in milliseconds." }),
  on: z.array(z.number().int().min(100).max(599)).default([429, 500, 502, 503, 504]).meta({ description: "The HTTP statuses that are retried (network errors and timeouts always are)." }),
});

export const callError = z.strictObject({
  when: template.meta({ description: "A `return` expression over `response` (and `status`): true means the call failed." }),
  message: template.meta({ description: "The message the caller (or the model) gets; a template." }),
});

/** One HTTP request, in api/run.yaml or in a service method's `calls`. */
export const call = z.strictObject({
  name: identifier.meta({ description: "Unique within its list; later calls read this reply as `calls.<name>`." }),
  when: template.optional().meta({ description: "A `return` expression; the call is skipped (and leaves no `calls.<name>`) when it is false." }),
  method: templated(httpMethod).default("GET").meta({ description: "The HTTP method (or a template giving one, e.g. from config). GET and HEAD carry no body." }),
  url: template.meta({ description: "The URL. Scheme and host are literal, or come from the node's config: a leading `{{ config.<name> }}` (a base URL) or `https://{{ config.<name> }}/…` (a host). Templates after that fill the path (encoded per segment) and the query, never the host." }),
  query: templated(z.record(z.string(), z.unknown())).optional().meta({ description: "Query parameters (a map with templated values, or one template giving a map); null or missing values are left out." }),
  headers: templated(z.record(z.string(), template)).optional().meta({ description: "Request headers (a map with templated values, or one template giving a map)." }),
  body: z.unknown().optional().meta({ description: "The request body (sent as JSON); any value, templated throughout." }),
  transport: transport.default("json").meta({ description: "How the reply is read: json, text, sse (server-sent events) or ndjson (one JSON value a line)." }),
  terminator: z.string().optional().meta({ description: "For streams: the event data that ends the stream, e.g. [DONE]." }),
  credential: credentialScheme.optional().meta({ description: "How the call authenticates: scheme none, bearer, basic, apiKeyHeader or apiKeyQuery, with its fields." }),
  timeoutMs: templated(z.number().int().min(1).max(600_000)).default(30_000).meta({ description: "Each try's time limit in milliseconds (connecting, waiting and reading the whole reply); never unbounded." }),
  retry: retryPolicy.optional().meta({ description: "Retries; none unless declared." }),
  okOn: z.array(z.number().int().min(100).max(599)).optional().meta({ description: "Statuses outside 2xx that still count as success (e.g. 404 for a lookup)." }),
  error: callError.optional().meta({ description: "Turns a reply into a failure the caller can act on." }),
  idempotent: z.boolean().optional().meta({ description: "Sending this request twice does no more than sending it once (GET, HEAD and OPTIONS are taken as such). A step whose calls all are is run again when a crash caught it mid-flight; otherwise the run waits for a person to decide (needs-attention). For a service method, set annotations.idempotentHint instead." }),
});
export type Call = z.infer<typeof call>;

/** api/run.yaml: the calls a node makes when it runs as a step (in order). */
export const runManifest = z.array(call).min(1);
export type RunManifest = z.infer<typeof runManifest>;
