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
export const transport = z.enum(["json", "text", "sse", "ndjson", "xml", "binary", "headers"]);
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
  z.strictObject({
    scheme: z.literal("oauth2ClientCredentials").meta({ description: "OAuth 2.0 client credentials: a token is fetched from `tokenUrl`, cached until it expires (refreshed early), and sent as a bearer token." }),
    tokenUrl: template.meta({ description: "The token endpoint; literal, or with its host from config like any call URL (never from a credential)." }),
    clientId: template.meta({ description: "e.g. `{{ credentials.service.clientId }}`." }),
    clientSecret: template.meta({ description: "e.g. `{{ credentials.service.clientSecret }}`." }),
    scope: z.string().optional().meta({ description: "The scopes asked for, space-separated." }),
    audience: z.string().optional().meta({ description: "The audience asked for, for providers that need one." }),
    authStyle: z.enum(["body", "basic"]).default("body").meta({ description: "How the client proves itself: `body` (client_id and client_secret in the form) or `basic` (an Authorization header)." }),
  }),
  z.strictObject({
    scheme: z.literal("awsSigV4").meta({ description: "AWS Signature Version 4: the request is signed with the access key (headers Authorization, X-Amz-Date, X-Amz-Content-Sha256)." }),
    service: z.string().min(1).meta({ description: "The AWS service name in the signature, e.g. s3, dynamodb, bedrock." }),
    region: template.optional().meta({ description: "The region, e.g. `{{ credentials.aws.region }}` or `us-east-1`; default: from the host, else us-east-1." }),
    accessKeyId: template.optional().meta({ description: "Default `{{ credentials.<first credential>.accessKeyId }}`." }),
    secretAccessKey: template.optional().meta({ description: "Default `{{ credentials.<first credential>.secretAccessKey }}`." }),
    sessionToken: template.optional().meta({ description: "For temporary credentials; default `{{ credentials.<first credential>.sessionToken }}`." }),
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

const count = templated(z.number().int().min(1));

export const paginate = z.strictObject({
  strategy: z.enum(["cursor", "page", "offset", "link"]).meta({ description: "cursor: `cursor` gives the next page's token; page: a page number from `start` (default 1); offset: an item offset from 0; link: the `Link: <…>; rel=\"next\"` reply header (same origin only)." }),
  cursor: template.optional().meta({ description: "cursor strategy: a `return` expression over `response` giving the next cursor; empty or null ends." }),
  into: z.string().optional().meta({ description: "The request parameter that carries the cursor, page number or offset (not for link)." }),
  in: z.enum(["query", "body"]).default("query").meta({ description: "Where `into` goes: the query (default) or the JSON body." }),
  items: template.optional().meta({ description: "A `return` expression over `response` giving one page's items; default: the reply when it is a list." }),
  size: count.optional().meta({ description: "page/offset: the page size; a page with fewer items is the last. Sent as `sizeInto` when given." }),
  sizeInto: z.string().optional().meta({ description: "The request parameter that carries `size`, when the API needs it." }),
  start: templated(z.number().int().min(0)).optional().meta({ description: "page: the first page number (default 1); offset: the first offset (default 0)." }),
  max: count.optional().meta({ description: "Stop once this many items are collected (the list is cut to it)." }),
  maxPages: count.default(50).meta({ description: "The page cap: never more requests than this (default 50, at most 1000); the reply says `truncated: true` when it stopped here." }),
});

export const poll = z.strictObject({
  until: template.meta({ description: "A `return` expression over `response`: the job is done when true." }),
  failed: template.optional().meta({ description: "A `return` expression over `response`: the job failed when true (the call fails with `message`)." }),
  message: template.optional().meta({ description: "The failure message when `failed` holds; a template." }),
  url: template.optional().meta({ description: "The URL to poll (default: the call's own); the same host rules as a call's URL." }),
  method: templated(httpMethod).default("GET").meta({ description: "The polling request's method." }),
  body: z.unknown().optional().meta({ description: "The polling request's body, for APIs polled with POST." }),
  intervalMs: count.default(2000).meta({ description: "The wait between two polls (at least 100 ms)." }),
  maxAttempts: count.optional().meta({ description: "Polls at most this many times." }),
  deadlineMs: count.default(300_000).meta({ description: "Gives up after this long in all (default 5 minutes, at most 1 hour); the call fails with a timeout that says so." }),
});

export const chunk = z.strictObject({
  items: template.meta({ description: "A `return` expression giving the list to send in batches." }),
  size: count.meta({ description: "Items per request; the body reads the current one as `batch` (and `batchIndex`)." }),
});

export const presign = z.strictObject({
  for: template.optional().meta({ description: "A `return` expression giving the list to make links for, one link per item (read as `item` by `url`); default: one link." }),
  url: template.meta({ description: "The URL to presign, under the same host rules as a call's URL (it may read `item`); checked by the URL guard and against the credential's origins." }),
  method: z.enum(["GET", "PUT", "HEAD", "DELETE"]).default("GET").meta({ description: "The method the link is good for: GET (download), PUT (upload), HEAD or DELETE." }),
  expiresIn: templated(z.number().int().min(1).max(604_800)).default(3600).meta({ description: "How long each link stays valid, in seconds (1 to 604800, AWS's seven days)." }),
});

/** One HTTP request, in api/run.yaml or in a service method's `calls`. */
export const call = z.strictObject({
  name: identifier.meta({ description: "Unique within its list; later calls read this reply as `calls.<name>`." }),
  when: template.optional().meta({ description: "A `return` expression; the call is skipped (and leaves no `calls.<name>`) when it is false." }),
  method: templated(httpMethod).default("GET").meta({ description: "The HTTP method (or a template giving one, e.g. from config). GET and HEAD carry no body." }),
  url: template.optional().meta({ description: "The URL. Scheme and host are literal, or come from the node's config: a leading `{{ config.<name> }}` (a base URL) or `https://{{ config.<name> }}/…` (a host). Templates after that fill the path (encoded per segment) and the query, never the host. A `return` expression is allowed when it starts with the literal origin (`return 'https://api.example.com/' + …`); the result must keep it. Required unless the entry is a `state` or `wait` step." }),
  query: templated(z.record(z.string(), z.unknown())).optional().meta({ description: "Query parameters (a map with templated values, or one template giving a map); null or missing values are left out." }),
  headers: templated(z.record(z.string(), template)).optional().meta({ description: "Request headers (a map with templated values, or one template giving a map)." }),
  body: z.unknown().optional().meta({ description: "The request body (sent as JSON unless `encoding` says otherwise); any value, templated throughout." }),
  encoding: z.enum(["json", "binary", "ndjson", "form", "multipart", "dynamodbJson"]).default("json").meta({ description: "How the body is sent: json; binary (a base64 string, or a binary reply `{ base64, contentType }`, sent as bytes); ndjson (a list, one JSON value a line); form (a map, url-encoded); multipart (a map; a value `{ base64, contentType, filename }` is a file); dynamodbJson (plain values in the manifest, DynamoDB's type tags on the wire for Item, Key, ExpressionAttributeValues and ExclusiveStartKey; the reply's Item, Items, Attributes and LastEvaluatedKey come back untagged)." }),
  transport: transport.default("json").meta({ description: "How the reply is read: json, text, sse (server-sent events), ndjson (one JSON value a line), xml (parsed to a plain object), binary (`{ base64, contentType, bytes }`) or headers (the reply's headers, for HEAD)." }),
  terminator: z.string().optional().meta({ description: "For streams: the event data that ends the stream, e.g. [DONE]." }),
  credential: credentialScheme.optional().meta({ description: "How the call authenticates: scheme none, bearer, basic, apiKeyHeader or apiKeyQuery, with its fields." }),
  timeoutMs: templated(z.number().int().min(1).max(600_000)).default(30_000).meta({ description: "Each try's time limit in milliseconds (connecting, waiting and reading the whole reply); never unbounded." }),
  retry: retryPolicy.optional().meta({ description: "Retries; none unless declared." }),
  okOn: z.array(z.number().int().min(100).max(599)).optional().meta({ description: "Statuses outside 2xx that still count as success (e.g. 404 for a lookup)." }),
  error: callError.optional().meta({ description: "Turns a reply into a failure the caller can act on." }),
  idempotent: z.boolean().optional().meta({ description: "Sending this request twice does no more than sending it once (GET, HEAD and OPTIONS are taken as such). A step whose calls all are is run again when a crash caught it mid-flight; otherwise the run waits for a person to decide (needs-attention). For a service method, set annotations.idempotentHint instead." }),
  paginate: paginate.optional().meta({ description: "Follows pages: the reply becomes `{ items, pages, truncated }`." }),
  poll: poll.optional().meta({ description: "Repeats a request until a job is done: the reply is the last poll's." }),
  chunk: chunk.optional().meta({ description: "Sends a list in batches, one request per batch: the reply is the list of replies." }),
  state: z.enum(["save", "read"]).optional().meta({ description: "Not a request: `save` keeps `value` as this node's state (read by later calls as `state`, and by the node's next run); `read` gives the saved state." }),
  value: z.unknown().optional().meta({ description: "With `state: save`: the value kept (a template or `return` expression); with `loop: open` the list to loop over, with `loop: advance` the value the pass collected." }),
  presign: presign.optional().meta({ description: "Not a request: AWS Signature V4 presigned links (the signature in the query), signed with the call's awsSigV4 `credential`; the reply is the list of link strings. A link carries its own authority until it expires." }),
  loop: z.enum(["open", "read", "advance"]).optional().meta({ description: "Not a request: a loop across nodes, kept for the run under `key`. `open` starts one over the list `value` and answers `{ item, index, total }` for its first item; `read` answers the same for the current item; `advance` adds `value` to what the loop collected, moves to the next item and answers `{ continuing, index, total, collected }` (the loop is closed when it is not continuing). A loop runs through the graph: its last node signals the first again." }),
  key: z.string().optional().meta({ description: "With `loop`: the loop's name within the run, e.g. `{{ run.nodeId }}` in the node that opens it; the node that advances it names the same key (a template)." }),
  wait: z.unknown().optional().meta({ description: "Not a request: waits this many milliseconds (a number, a template or a `return` expression; at most one hour), then answers `{ waitedMs }`. A cancelled run stops waiting at once." }),
});
export type Call = z.infer<typeof call>;

/** api/run.yaml: the calls a node makes when it runs as a step (in order). */
export const runManifest = z.array(call).min(1);
export type RunManifest = z.infer<typeof runManifest>;
