import type { InlineApprover } from "./approvals/inline-approver";
import type { CanvasToolServers } from "./canvas-tools";
import type { ModelProtocol } from "../ai";
import type { Catalogue, CredentialRequirement, NodeManifest, ToolExchangeManifest } from "../manifest";
import type { NodeTypes } from "../graph";
import type { Evaluator } from "../sandbox";
import type { AgentTool, CustomToolRegistry, McpToolResolver } from "../tools";
import type { CallContext, Credentials } from "../calls";
import type { EnvironmentCredentialGate } from "./environment-credentials";
import type { WorkflowGrants } from "./workflow-grants";
import type { ToolCallRow } from "../trace";

/** What an agent's model protocol is built from. */
export interface ModelRequest {
  nodeId: string;
  /** The node run's journal key (`agent#1`): its turns are `<key>/t1`, `<key>/t2`… */
  nodeRunKey?: string;
  manifest: NodeManifest;
  exchange: ToolExchangeManifest;
  config: Record<string, unknown>;
  callContext: CallContext;
  /**
   * Receives the model's text as it arrives (a chat turn, or someone follows the run): the
   * protocol streams its turns when it can. Absent: no one is listening.
   */
  onText?: (piece: string) => void;
}

/** What `agentTools` is told of the agent whose tools it stands in for. */
export interface AgentToolsContext {
  runId: string;
  nodeId: string;
  /** The node run's journal key (`agent#1`). */
  nodeRunKey: string;
  recordCall(row: ToolCallRow): Promise<void>;
}

/** Ranks an agent's tools for search_tools. */
export type ToolRankerFactory = (tools: readonly AgentTool[]) => (query: string, limit: number) => AgentTool[];

/**
 * Everything a run needs from outside the engine. The app, the CLI, a
 * worker and a test each build one; the engine itself imports no database,
 * no React and no Next.
 */
export interface EngineEnvironment {
  catalogue: Catalogue;
  nodeTypes: NodeTypes;
  evaluator: Evaluator;
  /** Chooses the model protocol of an agent node (adapters, the declarative exchange, a test double). */
  models(request: ModelRequest): ModelProtocol;
  /**
   * Credential values for a node's declared credentials, resolved on the
   * server. Values from the server's environment only for the credentials
   * `environmentAllowed` lets this node type take (the engine passes it).
   */
  credentials(nodeType: string, requirements: readonly CredentialRequirement[], environmentAllowed: EnvironmentCredentialGate): Promise<Credentials> | Credentials;
  /**
   * Origins a node type's credential may be sent to besides its manifest's
   * defaults: the ones a person added when storing it. A workflow's approved
   * origins come from `grants`.
   */
  credentialOrigins?(nodeType: string, name: string): Promise<readonly string[]> | readonly string[];
  /**
   * What this workflow was granted. Present for runs of a saved workflow in
   * the app: an MCP server or a credential it was not granted is refused
   * before the run starts. Absent (the CLI on a file, tests): no grant check.
   */
  grants?: WorkflowGrants;
  rankTools?: ToolRankerFactory;
  /** The private origins calls may reach, exactly (SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS); none by default. */
  allowedPrivateOrigins?: readonly string[];
  /** The custom tools registered for the run (defineTool results), behind `{ type: "custom", name }` sources. None: no custom source can resolve. */
  customTools?: CustomToolRegistry;
  /**
   * Serves the tools wired to an agent on the canvas (service nodes, Task
   * Starts): lib/mcp's `canvasToolServers`, which `createLocalEnvironment`
   * (lib/runs) sets. None: a workflow that wires one fails, saying so.
   */
  canvasTools?: CanvasToolServers;
  /** Resolves `{ type: "mcp", serverId }` sources (the connection manager; InMemoryMcpToolResolver in tests). None: no mcp source can resolve. */
  mcpTools?: McpToolResolver;
  /**
   * Someone who can decide a call that asks for approval at once, while the
   * run goes on (the outside host of a served workflow, through MCP
   * elicitation). Undefined from it, or none: the call waits for a person in
   * the app, as always.
   */
  approveInline?: InlineApprover;
  /**
   * Stands in for an agent's tools before it calls them (a test case's
   * cassette answers recorded calls): the tools the node resolved go in,
   * those it calls come out. `recordCall` writes a call's trace row, as a
   * tool's own server would.
   */
  agentTools?(tools: readonly AgentTool[], context: AgentToolsContext): AgentTool[];
  /** The clock the built-in tools read (get_current_time); default the system clock. */
  now?: () => Date;
  /**
   * Closes what this environment opened for the run (the connection manager's
   * sessions and child processes). runWorkflow calls it once when the run
   * ends, however it ended: completed, failed or cancelled.
   */
  dispose?: () => Promise<void> | void;
}
