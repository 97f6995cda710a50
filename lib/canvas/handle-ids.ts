import { edgeRoles, type EdgeKind, type HandleRole } from "../graph";

/**
 * Handle ids on the canvas carry their role: a port may be both an input
 * and an output of one node ("text" in, "text" out), and React Flow needs
 * one id per handle. The document stores bare names; these map between.
 */
export function handleId(role: HandleRole, name: string): string {
  return `${role}:${name}`;
}

const roles: readonly HandleRole[] = ["output", "input", "provider", "consumer", "task"];

/** The role and name of a canvas handle id; null when it is not one of ours. */
export function parseHandleId(id: string | null | undefined): { role: HandleRole; name: string } | null {
  if (!id) return null;
  const colon = id.indexOf(":");
  const role = id.slice(0, colon) as HandleRole;
  return colon > 0 && roles.includes(role) ? { role, name: id.slice(colon + 1) } : null;
}

/** The canvas handle ids an edge of this kind joins. */
export function edgeHandleIds(edge: { kind: EdgeKind; sourceHandle: string; targetHandle: string }): { sourceHandle: string; targetHandle: string } {
  const { source, target } = edgeRoles[edge.kind];
  return { sourceHandle: handleId(source, edge.sourceHandle), targetHandle: handleId(target, edge.targetHandle) };
}

/** Roles a connection starts from (outputs and offering ends); the others are where it ends. */
export function isSourceRole(role: HandleRole): boolean {
  return role === "output" || role === "provider" || role === "task";
}
