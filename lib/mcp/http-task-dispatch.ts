import { randomUUID } from "node:crypto";
import type { RawTaskDispatch } from "./task-call-v2";

/**
 * The raw JSON-RPC path ext-tasks needs for 2026-07-28 task traffic over
 * Streamable HTTP (the SDK client's codecs refuse `resultType: "task"`):
 * one POST per request with the headers the revision requires
 * (`Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), through the same
 * guarded fetch and headers as the session.
 */
export function httpTaskDispatch(url: URL, options: { fetch: (url: string | URL, init?: RequestInit) => Promise<Response>; headers: Record<string, string> }): RawTaskDispatch {
  return async (request, dispatch) => {
    const message = request as { method: string; params?: { name?: string; taskId?: string; _meta?: Record<string, unknown> } };
    const name = message.params?.name ?? message.params?.taskId;
    const version = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
    const response = await options.fetch(url, {
      method: "POST",
      signal: dispatch?.signal,
      headers: {
        ...options.headers,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...(typeof version === "string" ? { "Mcp-Protocol-Version": version } : {}),
        "Mcp-Method": message.method,
        ...(name ? { "Mcp-Name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: randomUUID(), ...message }),
    });
    const text = await response.text();
    const body = response.headers.get("content-type")?.includes("text/event-stream") ? lastEventData(text) : text;
    return JSON.parse(body) as Awaited<ReturnType<RawTaskDispatch>>;
  };
}

/** The last `data:` payload of an event stream: the response to the request. */
function lastEventData(stream: string): string {
  const data = stream.split("\n").filter((line) => line.startsWith("data:"));
  return data.at(-1)?.slice(5).trim() ?? "{}";
}
