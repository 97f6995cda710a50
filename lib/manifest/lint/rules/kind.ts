import { streamingTransports } from "../../schemas";
import { defineRule } from "../rule";

export const callbackKind = defineRule({
  id: "callback-kind",
  severity: "error",
  reads: ["interface", "run", "toolExchange"],
  summary: "A node that declares api/toolExchange.yaml, or whose last run call streams (sse, ndjson), must be a CallbackNode.",
  check(node) {
    const { interface: face, run } = node.parts;
    if (!face || face.kind === "CallbackNode") return [];
    const reasons: string[] = [];
    if (node.files.has("toolExchange")) reasons.push("it declares api/toolExchange.yaml (a tool loop is multi-turn)");
    const last = run?.at(-1);
    if (last && streamingTransports.has(last.transport)) reasons.push(`its last run call '${last.name}' streams (transport: ${last.transport})`);
    return reasons.map((reason) => ({
      in: "interface",
      path: ["kind"],
      message: `kind must be CallbackNode because ${reason}; set kind: CallbackNode`,
    }));
  },
});
