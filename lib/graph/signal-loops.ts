import type { Workflow, WorkflowEdge } from "./workflow";

/**
 * Signal loops that nothing can stop.
 *
 * A signal loop is a set of nodes that trigger one another in a circle (a
 * strongly connected part of the graph of signal edges, or a node signalling
 * itself). A node runs again whenever a new signal reaches it, so a loop ends
 * only when some edge on it stays silent; only an edge from a conditional
 * output (an api/events.yaml row with a `when`) can stay silent. Hence:
 *
 *   a loop has no exit when it contains a cycle whose every edge comes from
 *   an unconditional output.
 *
 * Such a cycle re-triggers itself for ever once any node on it runs, until
 * the run's per-node cap stops it, even when a conditional output also leads
 * out of the loop (that output fires, but the cycle keeps going). A loop
 * whose edge back is conditional is fine: when the condition is false it
 * stops; the usual shape is a checker whose conditional `retry` leads back
 * and whose conditional `done` leads on. An edge whose source type is
 * unknown counts as conditional, so one unknown node does not raise a second,
 * misleading problem.
 */
export interface SignalLoop {
  /** The nodes of one loop, in document order. */
  nodeIds: string[];
  /** Its unconditional edges, in document order. */
  edgeIds: string[];
}

/** The loops with no exit, given which edges come from a conditional output. */
export function loopsWithoutExit(
  workflow: Pick<Workflow, "nodes" | "edges">,
  isConditional: (edge: WorkflowEdge) => boolean,
): SignalLoop[] {
  const order = new Map(workflow.nodes.map((node, index) => [node.id, index]));
  const edges = workflow.edges.filter((edge) => edge.kind === "signal" && order.has(edge.source) && order.has(edge.target) && !isConditional(edge));
  const successors = new Map<string, string[]>();
  for (const edge of edges) successors.set(edge.source, [...(successors.get(edge.source) ?? []), edge.target]);
  return stronglyConnected([...order.keys()], successors)
    .map((component) => new Set(component))
    .map((members) => ({ members, inside: edges.filter((edge) => members.has(edge.source) && members.has(edge.target)) }))
    .filter(({ members, inside }) => members.size > 1 || inside.length > 0)
    .map(({ members, inside }) => ({
      nodeIds: [...members].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)),
      edgeIds: inside.map((edge) => edge.id),
    }));
}

/** Tarjan's strongly connected components, without recursion so deep graphs cannot overflow the stack. */
function stronglyConnected(nodes: readonly string[], successors: ReadonlyMap<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    lowLink.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = successors.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          lowLink.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        lowLink.set(parent, Math.min(lowLink.get(parent)!, lowLink.get(frame.node)!));
      }
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}
