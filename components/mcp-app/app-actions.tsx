"use client";

import { createContext, useContext } from "react";
import type { ToolAppProps } from "./tool-app";

/** The server actions a page gives its MCP App frames: reading a tool's UI, and (runners and above) the frame's calls. */
export type ToolAppActions = Pick<ToolAppProps, "load" | "call">;

export const ToolAppContext = createContext<ToolAppActions | null>(null);

/** The page's actions for MCP Apps, or null where the page gives none (no frame is shown). */
export function useToolAppActions(): ToolAppActions | null {
  return useContext(ToolAppContext);
}
