import { z } from "zod";

/** A node's name: its folder's name, lower-case words joined by hyphens. */
export const nodeName = z
  .string()
  .regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, "use lower-case words joined by hyphens, e.g. product-catalogue");

/** A port, connector, method or call name: letters, digits and _, starting with a letter. */
export const identifier = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "use letters, digits and _, starting with a letter");

export const portType = z.enum(["string", "number", "boolean", "object", "array", "signal"]);

export const port = z.strictObject({
  name: identifier.meta({ description: "The port's name, unique among the node's inputs (or outputs)." }),
  type: portType.meta({ description: "What travels on it: string, number, boolean, object, array, or signal (no value, just a trigger)." }),
  description: z.string().default("").meta({ description: "What the port carries, shown on hover and in the inspector." }),
  required: z.boolean().default(false).meta({ description: "The node cannot run until a required input has a value." }),
});
export type Port = z.infer<typeof port>;

export const credentialRequirement = z.strictObject({
  name: identifier.meta({ description: "The credential's name, read in calls as `credentials.<name>.<field>`." }),
  displayName: z.string().meta({ description: "The label people see when they pick or enter the credential." }),
  required: z.boolean().default(true).meta({ description: "Whether the node refuses to run without it." }),
  fields: z.array(identifier).default(["apiKey"]).meta({ description: "The secret's fields, read as `credentials.<name>.<field>` (e.g. apiKey, or username and password)." }),
  description: z.string().default("").meta({ description: "Where to get it and what it allows." }),
  origins: z
    .array(z.string().regex(/^https?:\/\/[^/?#\s{}]+$/, "an origin is a scheme and a host (and port), e.g. https://api.example.com, with no path and no template"))
    .optional()
    .meta({ description: "The literal origins the credential may be sent to, e.g. [https://api.github.com]; a call to any other origin never carries it." }),
});
export type CredentialRequirement = z.infer<typeof credentialRequirement>;

export const serviceConnector = z.strictObject({
  name: identifier.meta({ description: "The connector's name; conventionally `mcpService`." }),
  description: z.string().default("").meta({ description: "What the connector offers or expects, shown on the canvas." }),
  serviceType: z.enum(["mcp", "embedding"]).meta({ description: "What is offered over the connector: `mcp` (tools for an agent) or `embedding` (a text-embedding service: its methods take text and return vectors)." }),
  isService: z.boolean().meta({ description: "true: this node OFFERS its methods as tools; false: this node (an agent) CONSUMES the tools wired to it." }),
  methods: z.array(identifier).default([]).meta({ description: "With isService: true, the methods of api/service.yaml offered as tools (every one of them, each once)." }),
  instructions: z.string().optional().meta({ description: "How to use the tools well together; appended to the consuming agent's system prompt. Under 100 lines; do not repeat the tool descriptions." }),
});
export type ServiceConnector = z.infer<typeof serviceConnector>;

export const nodeKind = z.enum(["PromiseNode", "CallbackNode"]);

/** interface.yaml: a node's identity, ports, credentials and service connectors. */
export const interfaceManifest = z.strictObject({
  $schema: z.string().optional().meta({ description: "Ignored: an editor's schema hint, e.g. `../_schema/interface.schema.json`." }),
  name: nodeName.meta({ description: "The node's name; must equal its folder's name." }),
  title: z.string().min(1).meta({ description: "The name people see in the palette and on the canvas." }),
  description: z.string().min(1).meta({ description: "What the node does, in a sentence or two." }),
  whenToUse: z.string().default("").meta({ description: "When to pick this node over another; used when ranking nodes and tools." }),
  category: z.string().min(1).meta({ description: "The palette group, e.g. Agents, Services, Requests." }),
  kind: nodeKind.meta({ description: "PromiseNode: one pass. CallbackNode: multi-turn (required with a toolExchange or a streamed last run call)." }),
  inputs: z.array(port).default([]).meta({ description: "Signal inputs: values that arrive on edges and trigger the node." }),
  outputs: z.array(port).default([]).meta({ description: "Signal outputs: values the node puts out when it finishes (see api/events.yaml)." }),
  credentials: z.array(credentialRequirement).default([]).meta({ description: "The credentials the node needs; values are resolved on the server at call time." }),
  serviceConnectors: z.array(serviceConnector).default([]).meta({ description: "MCP connectors: offering tools (isService: true) or consuming them (isService: false)." }),
  source: z
    .strictObject({
      from: z.string().min(1).meta({ description: "Where the node came from, e.g. `unoverse-platform/marketplace airtable/AirtableFetch`." }),
      license: z.string().optional().meta({ description: "The licence of the original, e.g. MIT." }),
      notes: z.array(z.string()).default([]).meta({ description: "What the importer changed to make it fit, one line each." }),
    })
    .optional()
    .meta({ description: "For an imported node: its origin and the importer's notes (shown on /nodes). First-party nodes leave it out." }),
});
export type InterfaceManifest = z.infer<typeof interfaceManifest>;
