import { describe, expect, it } from "vitest";
import { createServerStore } from "@/lib/store";
import { serverToolLister } from "./server-tools";

const servers = [
  { id: "everything", name: "Everything", availability: "available" as const },
  { id: "other", name: "Other", availability: "available" as const },
  { id: "off", name: "Off", availability: "disabled" as const },
];

describe("serverToolLister", () => {
  it("lists each available server's tools once, leaves out broken tools, and records failures", async () => {
    const asked: string[] = [];
    const store = createServerStore(servers);
    const list = serverToolLister(store, {
      listTools: async (id) => {
        asked.push(id);
        if (id === "other") return { ok: false, error: "spawn failed" };
        return { ok: true, tools: [{ name: "echo", description: "Echoes", inputSchema: {} }, { name: "broken", description: "", inputSchema: {}, problem: "bad schema" }] };
      },
    });
    list(["everything", "other", "off", "missing"]);
    list(["everything"]);
    expect(store.getState().tools.everything).toEqual({ status: "loading" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(["everything", "other"]);
    expect(store.getState().tools).toEqual({
      everything: { status: "ready", tools: [{ name: "echo", description: "Echoes", inputSchema: {} }] },
      other: { status: "failed", error: "spawn failed" },
    });
  });
});
