import { createStore, type StoreApi } from "zustand/vanilla";
import type { CanvasServer, ServerTools, ServerToolsById } from "../canvas";

/**
 * The registry servers the canvas was opened with, and their tools as they
 * are listed (lazily: listing starts or reaches the server). The analysis
 * follows `tools`, so a node's problems and an agent's tool cost update
 * once a server's list arrives.
 */
export interface ServerState {
  servers: readonly CanvasServer[];
  byId: ReadonlyMap<string, CanvasServer>;
  tools: ServerToolsById;
  listing(id: string): void;
  listed(id: string, tools: ServerTools): void;
  /** The server was granted to this workflow just now: it is available from here on. */
  granted(id: string): void;
}

export type ServerStore = StoreApi<ServerState>;

export function createServerStore(servers: readonly CanvasServer[]): ServerStore {
  return createStore<ServerState>()((set, get) => ({
    servers,
    byId: new Map(servers.map((server) => [server.id, server])),
    tools: {},
    listing: (id) => set({ tools: { ...get().tools, [id]: { status: "loading" } } }),
    listed: (id, tools) => set({ tools: { ...get().tools, [id]: tools } }),
    granted: (id) => {
      const servers = get().servers.map((server) => (server.id === id && server.availability === "not-granted" ? { id: server.id, name: server.name, ...(server.description ? { description: server.description } : {}), availability: "available" as const } : server));
      set({ servers, byId: new Map(servers.map((server) => [server.id, server])) });
    },
  }));
}

export const selectServers = (state: ServerState) => state.servers;
export const selectServerTools = (state: ServerState) => state.tools;
export const selectServersById = (state: ServerState) => state.byId;
