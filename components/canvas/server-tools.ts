import type { CanvasServer, ServerTools } from "@/lib/canvas";
import type { ServerStore } from "@/lib/store";
import type { CanvasServerActions } from "@/components/workflows/action-types";

/**
 * Lists the tools of these servers, once each per open canvas, into the
 * server store: the ones the document uses when the canvas opens, the rest
 * when someone searches the palette. Servers that are not available are not
 * asked (their node says why instead). At most two listings at a time, since
 * each may start a server process.
 */
export function serverToolLister(store: ServerStore, actions: CanvasServerActions): (ids: Iterable<string>) => void {
  const queue: string[] = [];
  let active = 0;
  const next = () => {
    while (active < 2 && queue.length > 0) {
      const id = queue.shift() as string;
      active++;
      void listOne(id).finally(() => {
        active--;
        next();
      });
    }
  };
  const listOne = async (id: string) => {
    let outcome: ServerTools;
    try {
      const result = await actions.listTools(id);
      outcome = result.ok
        ? { status: "ready", tools: result.tools.filter((tool) => !tool.problem).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }
        : { status: "failed", error: result.error };
    } catch {
      outcome = { status: "failed", error: "the app could not be asked (is it still running?)" };
    }
    store.getState().listed(id, outcome);
  };
  return (ids) => {
    const { byId, tools } = store.getState();
    for (const id of ids) {
      const server: CanvasServer | undefined = byId.get(id);
      // A server not yet granted is listed too: its tools help decide whether to grant it (runs still refuse it).
      if (!server || (server.availability !== "available" && server.availability !== "not-granted") || tools[id] || queue.includes(id)) continue;
      store.getState().listing(id);
      queue.push(id);
    }
    next();
  };
}
