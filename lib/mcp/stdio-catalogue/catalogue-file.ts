import { z } from "zod";
import { refusedEnvironmentName } from "./refused-environment";

/**
 * The stdio catalogue file, written by the machine's administrator: the only
 * programs a stdio MCP server may be, each an exact executable with its
 * argument templates, the parameters an owner may fill in, and the
 * environment variables an entry may set. Nothing else can be started.
 *
 *   {
 *     "servers": {
 *       "files": {
 *         "title": "Files under /srv",
 *         "command": "/usr/bin/node",
 *         "args": ["/opt/mcp/files/index.js", "{{ root }}"],
 *         "parameters": { "root": { "type": "path", "within": ["/srv"] } },
 *         "env": { "API_TOKEN": { "description": "the service's token" } },
 *         "confine": { "network": "none" }
 *       }
 *     }
 *   }
 *
 * `{{ name }}` in an argument is a declared parameter (at most one per
 * argument); `{{ folder }}` is the catalogue file's own folder.
 */

const name = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const templatePattern = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** The folder the catalogue file is in, for programs shipped beside it. */
export const folderPlaceholder = "folder";

const description = z.string().max(1000, "a description is at most 1000 characters").optional();

const anchoredPattern = z
  .string()
  .min(1, "a pattern cannot be empty")
  .max(500, "a pattern is at most 500 characters")
  .check((context) => {
    try {
      new RegExp(`^(?:${context.value})$`, "u");
    } catch (error) {
      context.issues.push({ code: "custom", message: `not a valid regular expression: ${(error as Error).message}`, input: context.value });
    }
  });

const absoluteFolder = z
  .string()
  .regex(/^\//, "a folder here is an absolute path")
  .refine((folder) => !folder.split("/").includes(".."), { message: "a folder here cannot contain '..'" });

const stringParameter = z.strictObject({
  type: z.literal("string"),
  title: z.string().max(100).optional(),
  description,
  /** The whole value must match (it is anchored). */
  pattern: anchoredPattern.optional(),
  enum: z.array(z.string().min(1).max(200)).min(1, "an enum lists at least one value").max(100).optional(),
  maxLength: z.number().int().min(1).max(1000).default(200),
  default: z.string().optional(),
});

const integerParameter = z.strictObject({
  type: z.literal("integer"),
  title: z.string().max(100).optional(),
  description,
  minimum: z.number().int().optional(),
  maximum: z.number().int().optional(),
  default: z.number().int().optional(),
});

const pathParameter = z.strictObject({
  type: z.literal("path"),
  title: z.string().max(100).optional(),
  description,
  /** The folders the path must be inside (or be). */
  within: z.array(absoluteFolder).min(1, "a path parameter lists the folders it may be within").max(20),
  default: z.string().optional(),
});

const parameter = z
  .discriminatedUnion("type", [stringParameter, integerParameter, pathParameter], { error: "a parameter's type is string, integer or path" })
  .check((context) => {
    const value = context.value;
    if (value.type === "string" && !value.pattern && !value.enum) {
      context.issues.push({ code: "custom", path: ["pattern"], message: "a string parameter needs a pattern or an enum: free text could be anything", input: value });
    }
  });

const environmentVariable = z.strictObject({
  description,
  /** A literal value must match it (a secret's value is checked when the server starts). */
  pattern: anchoredPattern.optional(),
  /** Set by the catalogue itself; an entry cannot change it. */
  value: z.string().max(32_768).optional(),
});

const environmentName = z
  .string()
  .regex(name, "an environment variable name uses letters, digits and _, starting with a letter or _")
  .check((context) => {
    const reason = refusedEnvironmentName(context.value);
    if (reason) context.issues.push({ code: "custom", message: reason, input: context.value });
  });

const confine = z.strictObject({
  /**
   * "none": the server has no network at all (its own empty network
   * namespace). "full": the machine's network, unfiltered — bubblewrap
   * cannot filter by host.
   */
  network: z.enum(["none", "full"], { error: "network is none or full" }).default("none"),
  /** Folders the server may write to; everything else is read-only. */
  writable: z.array(absoluteFolder).max(20).default([]),
});

const catalogueEntry = z
  .strictObject({
    title: z.string().min(1, "a title is required").max(100, "a title is at most 100 characters"),
    description,
    /** An absolute path, or a bare name looked up once on PATH when the catalogue is read. */
    command: z
      .string()
      .min(1, "the command is required")
      .max(1000)
      .refine((command) => command.startsWith("/") || !command.includes("/"), { message: "the command is an absolute path or a bare name found on PATH" }),
    args: z.array(z.string().max(4096, "an argument is at most 4096 characters")).max(100, "at most 100 arguments").default([]),
    parameters: z.record(z.string().regex(name, "a parameter name uses letters, digits and _").refine((key) => key !== folderPlaceholder, { message: `'${folderPlaceholder}' is the catalogue's folder, not a parameter` }), parameter).default({}),
    env: z.record(environmentName, environmentVariable).default({}),
    confine: confine.optional(),
  })
  .check((context) => {
    const entry = context.value;
    const used = new Set<string>();
    entry.args.forEach((template, index) => {
      const names = [...template.matchAll(templatePattern)].map((match) => match[1]).filter((key) => key !== folderPlaceholder);
      if (names.length > 1) context.issues.push({ code: "custom", path: ["args", index], message: "an argument holds at most one parameter", input: template });
      for (const key of names) {
        used.add(key);
        if (!(key in entry.parameters)) context.issues.push({ code: "custom", path: ["args", index], message: `{{ ${key} }} is not a declared parameter`, input: template });
      }
    });
    for (const key of Object.keys(entry.parameters)) {
      if (!used.has(key)) context.issues.push({ code: "custom", path: ["parameters", key], message: `the parameter ${key} is used in no argument`, input: key });
    }
  });

export const catalogueFileSchema = z.strictObject({
  $schema: z.string().optional(),
  description,
  servers: z
    .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "a catalogue entry id uses letters, digits, - and _"), catalogueEntry)
    .check((context) => {
      // A stored entry is matched to the catalogue by its command line: two entries with one line could not be told apart.
      const seen = new Map<string, string>();
      for (const [id, entry] of Object.entries(context.value)) {
        const line = JSON.stringify([entry.command, entry.args]);
        const earlier = seen.get(line);
        if (earlier) context.issues.push({ code: "custom", path: [id], message: `'${id}' starts the same command line as '${earlier}'; give each program one entry`, input: id });
        seen.set(line, id);
      }
    }),
});

export type CatalogueFile = z.output<typeof catalogueFileSchema>;
export type CatalogueEntrySpec = z.output<typeof catalogueEntry>;
export type ParameterSpec = z.output<typeof parameter>;
export type EnvironmentSpec = z.output<typeof environmentVariable>;
export type Confinement = z.output<typeof confine>;
