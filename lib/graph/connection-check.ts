import { lookupNodeType } from "./builtin-nodes";
import { describeHandle, edgeKindFor, edgeRoles, type HandleRole, type NodeHandle, nodeHandles } from "./handles";
import type { NodeTypes } from "./node-type-info";
import { signalFit } from "./port-compatibility";
import type { EdgeKind, WorkflowNode } from "./workflow";

/** A connection as the canvas proposes it; with no kind, the handles decide it. */
export interface Connection {
  source: string;
  sourceHandle: string | null;
  target: string;
  targetHandle: string | null;
  kind?: EdgeKind;
}

/** Where in an edge a refusal points. */
export type ConnectionField = "source" | "target" | "sourceHandle" | "targetHandle" | "kind";

export type ConnectionVerdict =
  | { ok: true; kind: EdgeKind; warning?: { code: string; message: string } }
  | { ok: false; code: string; field: ConnectionField; reason: string };

/**
 * The rules one edge must keep, whatever else the workflow holds: both nodes
 * exist and have known types, both handles exist, the handles make the
 * edge's kind, and on a signal edge the port types fit (port-compatibility.ts).
 * Shared by validateWorkflow (each edge) and canConnect (one new edge).
 */
export function checkConnection(
  nodesById: ReadonlyMap<string, WorkflowNode>,
  nodeTypes: NodeTypes,
  connection: Connection,
): ConnectionVerdict {
  const ends = resolveEnds(nodesById, nodeTypes, connection);
  if (!ends.ok) return ends;
  const { sourceHandles, targetHandles } = ends;
  const pairs = sourceHandles.flatMap((source) => targetHandles.map((target) => ({ source, target, kind: edgeKindFor(source.role, target.role) })));
  const pair = pairs.find((candidate) => candidate.kind !== undefined && (connection.kind === undefined || candidate.kind === connection.kind));
  if (!pair?.kind) {
    return { ok: false, code: "edge-kind-mismatch", field: "kind", reason: kindMismatchReason(connection.kind, sourceHandles[0], targetHandles[0]) };
  }
  if (pair.kind !== "signal") return { ok: true, kind: pair.kind };
  return signalVerdict(connection, pair.source, pair.target);
}

type ResolvedEnds = { ok: true; sourceHandles: NodeHandle[]; targetHandles: NodeHandle[] } | Extract<ConnectionVerdict, { ok: false }>;

/** Finds both nodes, their types and the named handles on each. */
function resolveEnds(nodesById: ReadonlyMap<string, WorkflowNode>, nodeTypes: NodeTypes, connection: Connection): ResolvedEnds {
  const handles: NodeHandle[][] = [];
  for (const side of ["source", "target"] as const) {
    const nodeId = connection[side];
    const node = nodesById.get(nodeId);
    if (!node) {
      return { ok: false, code: "dangling-edge", field: side, reason: `The edge's ${side} "${nodeId}" is no node of this workflow; connect it to an existing node or delete it.` };
    }
    const info = lookupNodeType(nodeTypes, node.type);
    if (!info) return { ok: false, code: "unknown-node-type", field: side, reason: `Node "${nodeId}" has the unknown type "${node.type}"; fix the node first.` };
    const handleField = side === "source" ? "sourceHandle" : "targetHandle";
    const name = connection[handleField];
    const sideRoles: HandleRole[] = side === "source" ? ["output", "provider", "task"] : ["input", "consumer"];
    const all = nodeHandles(node, info);
    // A name may be both an input and an output ("text" in, "text" out): the side's own role comes first.
    const named = all.filter((handle) => handle.name === name).sort((a, b) => Number(!sideRoles.includes(a.role)) - Number(!sideRoles.includes(b.role)));
    if (named.length === 0) {
      const offered = all.filter((handle) => sideRoles.includes(handle.role)).map((handle) => `"${handle.name}"`);
      const list = offered.length > 0 ? `its handles on that side are ${offered.join(", ")}` : "it has no handle on that side";
      return { ok: false, code: "unknown-handle", field: handleField, reason: `Node "${nodeId}" (${info.title}) has no handle "${name ?? ""}": ${list}.` };
    }
    handles.push(named);
  }
  return { ok: true, sourceHandles: handles[0], targetHandles: handles[1] };
}

/** Why these two handles cannot make an edge (of the given kind), in the author's words. */
export function kindMismatchReason(kind: EdgeKind | undefined, source: NodeHandle, target: NodeHandle): string {
  const inferred = edgeKindFor(source.role, target.role);
  if (kind && inferred) return `From ${describeHandle(source)} to ${describeHandle(target)} is a ${inferred} edge, not a ${kind} edge; set its kind to ${inferred}.`;
  const reversed = edgeKindFor(target.role, source.role);
  if (reversed && (kind === undefined || kind === reversed)) {
    return `This ${reversed} edge is drawn backwards: it runs from ${describeHandle(target)} to ${describeHandle(source)}; draw it the other way.`;
  }
  if ((kind ?? "service") === "service" && source.role === "consumer" && target.role === "consumer") {
    return "A service edge joins a tool provider to an agent; both ends here consume tools.";
  }
  if ((kind ?? "service") === "service" && source.role === "provider" && target.role === "provider") {
    return "A service edge joins a tool provider to an agent; both ends here offer tools.";
  }
  if (kind === undefined) {
    return `${capitalize(describeHandle(source))} and ${describeHandle(target)} do not go together: join an output to an input (signal), a tool provider to an agent (service), or a Task Start's task handle to an agent (task).`;
  }
  const roles = edgeRoles[kind];
  const wrongSide = source.role !== roles.source ? "source" : "target";
  const wrong = wrongSide === "source" ? source : target;
  return `${kindSentence[kind]} ${capitalize(describeHandle(wrong))} is not ${roleNoun[roles[wrongSide]]}${kindAdvice(kind, wrong)}.`;
}

const roleNoun: Record<HandleRole, string> = {
  output: "an output port",
  input: "an input port",
  provider: "a tool provider's connector",
  consumer: "an agent's tool connector",
  task: "a Task Start's task handle",
};

const kindSentence: Record<EdgeKind, string> = {
  signal: "A signal edge carries a value from an output port to an input port.",
  service: "A service edge joins a tool provider's connector (isService: true) to an agent's tool connector (isService: false).",
  task: "A task edge runs from the handle at the bottom of a Task Start to an agent's tool connector (isService: false).",
};

function kindAdvice(kind: EdgeKind, wrong: NodeHandle): string {
  if (kind === "signal" && (wrong.role === "consumer" || wrong.role === "provider")) return ": to give an agent tools, use a service edge";
  if (kind !== "signal" && (wrong.role === "input" || wrong.role === "output")) return ": ports are joined by signal edges";
  return "";
}

function signalVerdict(connection: Connection, source: NodeHandle, target: NodeHandle): ConnectionVerdict {
  const sourceType = source.port?.type ?? "any";
  const targetType = target.port?.type ?? "any";
  const fit = signalFit(sourceType, targetType);
  const route = `Output "${source.name}" of "${connection.source}" into input "${target.name}" of "${connection.target}"`;
  if (!fit.fits) {
    return { ok: false, code: "signal-type-mismatch", field: "targetHandle", reason: `${route}: ${fit.reason}. Join an output to an input that takes what it gives, or put a node between them that converts the value.` };
  }
  if (fit.warning) return { ok: true, kind: "signal", warning: { code: "signal-type-conversion", message: `${route}: ${fit.warning}.` } };
  return { ok: true, kind: "signal" };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
