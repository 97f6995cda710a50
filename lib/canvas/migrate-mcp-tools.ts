import { mcpServerConnector, mcpServerNodeType, type Workflow, type WorkflowEdge, type WorkflowNode } from "../graph";
import { uniqueId } from "./node-ids";

/**
 * Moves the MCP servers an agent declares in its `tools` list
 * (`{ type: "mcp", serverId, toolNames? }`) onto the canvas: one MCP server
 * node per entry, under the agent, wired to its tool socket. What the run
 * does is unchanged: wired servers add to the declared tools, and the rest of
 * the list stays as it was (an emptied list stays `[]`, so the agent type's
 * default tools stay replaced). Documents saved before MCP server nodes
 * existed open this way; the saved document follows at the next save.
 *
 * @example migrateMcpToolSources(workflow, (type) => (type === "offline-agent" ? "mcpService" : undefined)).moved // 1
 */
export function migrateMcpToolSources(workflow: Workflow, toolConnectorOf: (type: string) => string | undefined): { workflow: Workflow; moved: number } {
  const taken = new Set(workflow.nodes.map((node) => node.id));
  const takenEdges = new Set(workflow.edges.map((edge) => edge.id));
  const added: WorkflowNode[] = [];
  const edges: WorkflowEdge[] = [];
  const nodes = workflow.nodes.map((node) => {
    const connector = toolConnectorOf(node.type);
    const servers = (node.tools ?? []).filter((source) => source.type === "mcp");
    if (!connector || servers.length === 0) return node;
    servers.forEach((source, index) => {
      const id = uniqueId(source.serverId, taken);
      taken.add(id);
      const edgeId = uniqueId(`${id}-tools`, takenEdges);
      takenEdges.add(edgeId);
      added.push({
        id,
        type: mcpServerNodeType,
        position: { x: node.position.x + index * 260, y: node.position.y + 240 },
        config: source.toolNames ? { serverId: source.serverId, toolNames: source.toolNames } : { serverId: source.serverId },
      });
      edges.push({ id: edgeId, kind: "service", source: id, sourceHandle: mcpServerConnector, target: node.id, targetHandle: connector });
    });
    return { ...node, tools: (node.tools ?? []).filter((source) => source.type !== "mcp") };
  });
  if (added.length === 0) return { workflow, moved: 0 };
  return { workflow: { ...workflow, nodes: [...nodes, ...added], edges: [...workflow.edges, ...edges] }, moved: added.length };
}
