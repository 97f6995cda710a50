"use client";

import { useEffect, useRef, useState } from "react";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { AppToolResult } from "./app-types";
import styles from "./mcp-app.module.css";

export interface AppFrameProps {
  /** The app document's route (GET /app-frame/<run id>): the checked HTML with its own Content-Security-Policy header. */
  src: string;
  tool: string;
  /** The iframe's accessible name. */
  title: string;
  toolInput: Record<string, unknown>;
  /** The call's result; absent while it waits (the approval form shows the app with its input only). */
  toolResult?: AppToolResult;
  prefersBorder?: boolean;
  /** A tools/call the frame asks for: the host's own path (grants, approvals, trace). */
  callTool: (name: string, args: Record<string, unknown>) => Promise<AppToolResult>;
}

const minHeight = 48;
const maxHeight = 800;
const hostInfo = { name: "switchboard", version: "0.1.0" };

function hostTheme(): "light" | "dark" {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/**
 * An MCP App in a sandboxed frame: `sandbox="allow-scripts"` without
 * `allow-same-origin`, so the document has an opaque origin of its own and
 * can reach neither this page's DOM nor its cookies and storage. Its
 * document comes from its own route, whose Content-Security-Policy header
 * allows exactly the origins its resource declared (an `srcdoc` frame would
 * inherit this page's policy instead). The frame talks to this page
 * only through the extension's postMessage JSON-RPC (AppBridge): it is sent
 * the host's theme, the tool's input and result; its size changes set the
 * frame's height; its tools/call requests go to `callTool`.
 */
export function AppFrame({ src, tool, title, toolInput, toolResult, prefersBorder, callTool }: AppFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(160);
  const [connected, setConnected] = useState(false);
  const latest = useRef({ toolInput, toolResult, callTool });
  latest.current = { toolInput, toolResult, callTool };

  useEffect(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const context = { theme: hostTheme(), displayMode: "inline" as const, availableDisplayModes: ["inline" as const], containerDimensions: { maxHeight }, toolInfo: { tool: { name: tool, inputSchema: { type: "object" as const } } } };
    const bridge = new AppBridge(null, hostInfo, { serverTools: {}, logging: {} }, { hostContext: context });
    bridge.onsizechange = ({ height: asked }) => {
      if (typeof asked === "number" && Number.isFinite(asked)) setHeight(Math.max(minHeight, Math.min(maxHeight, Math.ceil(asked))));
    };
    bridge.oninitialized = () => {
      void bridge.sendToolInput({ arguments: latest.current.toolInput });
      if (latest.current.toolResult) void bridge.sendToolResult({ ...latest.current.toolResult });
    };
    bridge.oncalltool = async (params) => (await latest.current.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>)) as never;
    const themes = window.matchMedia?.("(prefers-color-scheme: dark)");
    const onTheme = () => bridge.setHostContext({ ...context, theme: hostTheme() });
    themes?.addEventListener("change", onTheme);
    let closed = false;
    void bridge.connect(new PostMessageTransport(target, target)).then(() => {
      if (!closed) setConnected(true);
    });
    return () => {
      closed = true;
      themes?.removeEventListener("change", onTheme);
      void bridge.close();
    };
  }, [tool]);

  return (
    <iframe
      ref={frame}
      className={`${styles.frame}${prefersBorder ? ` ${styles.bordered}` : ""}`}
      title={title}
      // Scripts only: no allow-same-origin (an opaque origin), no forms, popups, top navigation or downloads.
      sandbox="allow-scripts"
      referrerPolicy="no-referrer"
      // Loaded once the bridge listens, so the app's first message (ui/initialize) is heard.
      src={connected ? src : undefined}
      style={{ height }}
      data-tool={tool}
    />
  );
}
