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
  const successors = successorsOf(edges);
  const components = stronglyConnected([...order.keys()], successors);
  // One pass over the edges: each edge inside a component, by component (not a scan of every edge per component).
  const componentOf = new Map<string, number>();
  components.forEach((component, index) => component.forEach((member) => componentOf.set(member, index)));
  const inside = components.map((): WorkflowEdge[] => []);
  for (const edge of edges) {
    const component = componentOf.get(edge.source);
    if (component !== undefined && component === componentOf.get(edge.target)) inside[component].push(edge);
  }
  return components
    .map((component, index) => ({ component, inside: inside[index] }))
    .filter(({ component, inside }) => component.length > 1 || inside.length > 0)
    .map(({ component, inside }) => ({
      nodeIds: [...component].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)),
      edgeIds: inside.map((edge) => edge.id),
    }));
}

/** Each node's successors over the unconditional signal edges (those a loop with no exit is made of). */
export function signalSuccessors(workflow: Pick<Workflow, "edges">, isConditional: (edge: WorkflowEdge) => boolean): Map<string, string[]> {
  return successorsOf(workflow.edges.filter((edge) => edge.kind === "signal" && !isConditional(edge)));
}

/**
 * Whether `from` reaches `to` over these successors (a node reaches
 * itself). A new unconditional edge to → from closes a loop with no exit
 * exactly when it does; linear in the edges, so canConnect asks it before it
 * names the loop with loopsWithoutExit.
 */
export function reaches(successors: ReadonlyMap<string, readonly string[]>, from: string, to: string): boolean {
  if (from === to) return true;
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    for (const next of successors.get(queue.pop() as string) ?? []) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

function successorsOf(edges: readonly WorkflowEdge[]): Map<string, string[]> {
  const successors = new Map<string, string[]>();
  for (const edge of edges) {
    const list = successors.get(edge.source);
    if (list) list.push(edge.target);
    else successors.set(edge.source, [edge.target]);
  }
  return successors;
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
