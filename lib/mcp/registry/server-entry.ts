import { z } from "zod";
import { serverApprovalDefaults } from "../../manifest";
import { hasStrayTemplate, hasTemplate, secretReferences } from "./secret-references";
import { refusedEnvironmentName } from "../stdio-catalogue/refused-environment";

/**
 * The one schema of an MCP server entry, parsed on every write AND every
 * read of the registry. It holds the rules that depend on the entry alone
 * (shape, where secrets may appear); the rules that depend on the machine
 * (the stdio catalogue a command line must match, stdio switched off, what a
 * host resolves to) are checked after it by `checkServerPolicy`.
 */

export const transports = ["stdio", "http", "sse"] as const;
export type Transport = (typeof transports)[number];

export const serverEntryDefaults = { timeoutMs: 30_000, maxRetries: 2, enabled: true } as const;

const templateFree = (what: string) => (value: string) => !hasTemplate(value) || `${what} cannot hold a {{ … }} template; secrets go in env or header values as {{ secrets.NAME }}`;

function text(options: { min?: number; max: number; what: string }) {
  return z
    .string()
    .min(options.min ?? 0, `${options.what} is required`)
    .max(options.max, `${options.what} is longer than ${options.max} characters`)
    .check((context) => {
      const verdict = templateFree(options.what)(context.value);
      if (verdict !== true) context.issues.push({ code: "custom", message: verdict, input: context.value });
    });
}

export const serverId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "the id uses letters, digits, - and _ (at most 64), starting with a letter or digit");

const secretName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "a secret name uses letters, digits and _, starting with a letter or _");

const environmentName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name uses letters, digits and _, starting with a letter or _")
  .check((context) => {
    const reason = refusedEnvironmentName(context.value);
    if (reason) context.issues.push({ code: "custom", message: reason, input: context.value });
  });

/** Headers the transport sets itself. */
const transportHeaders = new Set(["host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive"]);

const headerName = z
  .string()
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "not a valid header name")
  .refine((name) => !transportHeaders.has(name.toLowerCase()), { message: "this header is set by the transport and cannot be configured" });

const headerValue = z
  .string()
  .max(8192, "a header value is longer than 8192 characters")
  .refine((value) => !/[\r\n\0]/.test(value), { message: "a header value cannot contain line breaks" });

const httpUrl = z
  .string()
  .max(2048, "the URL is longer than 2048 characters")
  .check((context) => {
    const problem = staticUrlProblem(context.value);
    if (problem) context.issues.push({ code: "custom", message: problem, input: context.value });
  });

function staticUrlProblem(raw: string): string | null {
  if (hasTemplate(raw)) return "the URL cannot hold a {{ … }} template; put secrets in a header as {{ secrets.NAME }}";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `'${raw.slice(0, 200)}' is not a valid URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `only http and https URLs are allowed, not ${url.protocol}`;
  if (url.username || url.password) return "the URL cannot carry a user name or password; use a header with a secret";
  return null;
}

const common = {
  id: serverId,
  name: text({ min: 1, max: 100, what: "the name" }),
  description: text({ max: 1000, what: "the description" }).optional(),
  /** Names of stored secrets, used in env or header values as `{{ secrets.NAME }}`. */
  secrets: z.array(secretName).max(50, "at most 50 secrets").optional(),
  timeoutMs: z.number().int("a whole number of milliseconds").min(100, "at least 100 ms").max(600_000, "at most 600000 ms (10 minutes)").default(serverEntryDefaults.timeoutMs),
  toolTimeoutMs: z.number().int("a whole number of milliseconds").min(0, "0 (no timeout) or more").max(3_600_000, "at most 3600000 ms (1 hour)").optional(),
  maxRetries: z.number().int("a whole number").min(0, "0 or more").max(10, "at most 10").default(serverEntryDefaults.maxRetries),
  maxConcurrentCalls: z.number().int("a whole number").min(1, "at least 1").max(1000, "at most 1000").optional(),
  /** The tools agents may take from this server; absent: every tool it lists. A name the server stops listing is flagged on the canvas. */
  allowedTools: z.array(text({ min: 1, max: 200, what: "a tool name" })).max(500, "at most 500 tools").optional(),
  enabled: z.boolean().default(serverEntryDefaults.enabled),
  /** Default approval policies for this server's tools (set on /servers by an owner or editor); a workflow's node or edge policy wins over them. */
  approval: serverApprovalDefaults.optional(),
};

const stdioEntry = z
  .strictObject({
    ...common,
    transport: z.literal("stdio"),
    /** The program, as the stdio catalogue entry it matches names it (lib/mcp/stdio-catalogue). */
    command: text({ min: 1, max: 1000, what: "the command" }),
    args: z.array(text({ max: 4096, what: "an argument" })).max(100, "at most 100 arguments").default([]),
    env: z.record(environmentName, z.string().max(32_768, "an environment value is longer than 32768 characters")).optional(),
  });

export const oauthGrants = ["authorization_code", "client_credentials"] as const;
export type OAuthGrant = (typeof oauthGrants)[number];

/**
 * OAuth 2.1 to a remote server (lib/mcp/oauth). `authorization_code`: a
 * person connects it once on the Servers page (the client registers itself
 * by client ID metadata document or dynamic registration, unless a client
 * id is given); `client_credentials`: machine to machine, with a client id
 * and secret. The client secret is one of the server's secrets, named here.
 */
const oauthConfig = z.strictObject({
  grant: z.enum(oauthGrants, { error: "the OAuth grant is authorization_code or client_credentials" }).default("authorization_code"),
  clientId: text({ min: 1, max: 500, what: "the OAuth client id" }).optional(),
  clientSecret: secretName.optional(),
  scope: text({ min: 1, max: 1000, what: "the OAuth scope" }).optional(),
  /** Accept an authorization server whose metadata names another issuer than where it is (security-weakening; a few 2025-03-26-era servers need it). */
  allowIssuerMismatch: z.boolean().optional(),
});

const httpFields = {
  ...common,
  url: httpUrl,
  headers: z.record(headerName, headerValue).optional(),
  oauth: oauthConfig.optional(),
};

const httpEntry = z.strictObject({ ...httpFields, transport: z.literal("http") });
const sseEntry = z.strictObject({ ...httpFields, transport: z.literal("sse") });

/** Secrets appear only as `{{ secrets.NAME }}` in env and header values, each one declared in `secrets`. */
function checkSecretUse(entry: { secrets?: string[]; env?: Record<string, string>; headers?: Record<string, string>; oauth?: z.output<typeof oauthConfig> }, context: z.RefinementCtx): void {
  const declared = new Set(entry.secrets ?? []);
  checkOAuth(entry.oauth, declared, entry.headers, context);
  if (entry.secrets && declared.size !== entry.secrets.length) {
    context.addIssue({ code: "custom", path: ["secrets"], message: "a secret name is listed twice" });
  }
  for (const [field, record] of [["env", entry.env], ["headers", entry.headers]] as const) {
    for (const [key, value] of Object.entries(record ?? {})) {
      if (hasStrayTemplate(value)) {
        context.addIssue({ code: "custom", path: [field, key], message: `${key}: only {{ secrets.NAME }} templates are understood here` });
        continue;
      }
      const undeclared = secretReferences(value).filter((name) => !declared.has(name));
      if (undeclared.length) {
        context.addIssue({ code: "custom", path: [field, key], message: `${key} uses the secret ${undeclared[0]}, which is not in the server's secrets` });
      }
    }
  }
}

function checkOAuth(oauth: z.output<typeof oauthConfig> | undefined, declared: ReadonlySet<string>, headers: Record<string, string> | undefined, context: z.RefinementCtx): void {
  if (!oauth) return;
  if (oauth.clientSecret && !declared.has(oauth.clientSecret)) {
    context.addIssue({ code: "custom", path: ["oauth", "clientSecret"], message: `the OAuth client secret ${oauth.clientSecret} is not in the server's secrets` });
  }
  if (oauth.clientSecret && !oauth.clientId) context.addIssue({ code: "custom", path: ["oauth", "clientId"], message: "a client secret needs its client id" });
  if (oauth.grant === "client_credentials" && (!oauth.clientId || !oauth.clientSecret)) {
    context.addIssue({ code: "custom", path: ["oauth", "clientId"], message: "the client credentials grant needs a client id and a client secret" });
  }
  if (Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization")) {
    context.addIssue({ code: "custom", path: ["headers", "Authorization"], message: "an OAuth server gets its Authorization header from its token: remove the Authorization header" });
  }
}

export const serverEntrySchema = z
  .discriminatedUnion("transport", [stdioEntry, httpEntry, sseEntry], { error: "the transport must be stdio, http or sse" })
  .superRefine(checkSecretUse);

/** What a caller writes: defaults may be left out. */
export type ServerEntryInput = z.input<typeof serverEntrySchema>;
/** What the registry stores and returns: defaults filled. */
export type ServerEntry = z.output<typeof serverEntrySchema>;
export type StdioServerEntry = Extract<ServerEntry, { transport: "stdio" }>;
export type RemoteServerEntry = Extract<ServerEntry, { transport: "http" | "sse" }>;
