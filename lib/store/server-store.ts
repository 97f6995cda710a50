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
}

export type ServerStore = StoreApi<ServerState>;

export function createServerStore(servers: readonly CanvasServer[]): ServerStore {
  return createStore<ServerState>()((set, get) => ({
    servers,
    byId: new Map(servers.map((server) => [server.id, server])),
    tools: {},
    listing: (id) => set({ tools: { ...get().tools, [id]: { status: "loading" } } }),
    listed: (id, tools) => set({ tools: { ...get().tools, [id]: tools } }),
  }));
}

export const selectServers = (state: ServerState) => state.servers;
export const selectServerTools = (state: ServerState) => state.tools;
export const selectServersById = (state: ServerState) => state.byId;
