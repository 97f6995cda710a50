import { defineRule, type Finding } from "../rule";

export const eventsMissingOutput = defineRule({
  id: "events-missing-output",
  severity: "error",
  reads: ["interface", "events", "run", "toolExchange"],
  summary: "Every output of a node that runs (api/run.yaml or a toolExchange) has a row in api/events.yaml.",
  check(node) {
    const face = node.parts.interface;
    if (!face || (!node.files.has("run") && !node.files.has("toolExchange"))) return [];
    const emitted = new Set((node.parts.events ?? []).map((row) => row.emit));
    return face.outputs.flatMap((output, index): Finding[] => {
      if (output.type === "signal" || emitted.has(output.name)) return [];
      return [{ in: "interface", path: ["outputs", index, "name"], message: `output '${output.name}' has no row in api/events.yaml; add \`- emit: ${output.name}\` with its value` }];
    });
  },
});

export const eventsUnknownOutput = defineRule({
  id: "events-unknown-output",
  severity: "error",
  reads: ["interface", "events"],
  summary: "Every row of api/events.yaml emits a declared output.",
  check(node) {
    const outputs = (node.parts.interface?.outputs ?? []).map((output) => output.name);
    if (!node.parts.interface) return [];
    return (node.parts.events ?? []).flatMap((row, index): Finding[] =>
      outputs.includes(row.emit)
        ? []
        : [{ in: "events", path: [index, "emit"], message: `emit '${row.emit}' names no output of the node; outputs are: ${outputs.join(", ") || "(none)"}` }],
    );
  },
});

export const eventsOrder = defineRule({
  id: "events-order",
  severity: "error",
  reads: ["interface", "events"],
  summary: "Rows of api/events.yaml follow the order in which the outputs are declared.",
  check(node) {
    const outputs = (node.parts.interface?.outputs ?? []).map((output) => output.name);
    let last = -1;
    const findings: Finding[] = [];
    (node.parts.events ?? []).forEach((row, index) => {
      const position = outputs.indexOf(row.emit);
      if (position === -1) return;
      if (position < last) {
        findings.push({ in: "events", path: [index, "emit"], message: `row for '${row.emit}' comes after '${outputs[last]}', but the outputs declare '${row.emit}' first; keep the rows in output order` });
      }
      last = Math.max(last, position);
    });
    return findings;
  },
});

export const eventsFromToolNeedsAgent = defineRule({
  id: "events-from-tool-needs-agent",
  severity: "warning",
  reads: ["events", "toolExchange"],
  summary: "A `from: tool` row (after each tool call) belongs to an agent: a node without api/toolExchange.yaml makes no tool calls, so the row never fires.",
  check(node) {
    if (node.files.has("toolExchange")) return [];
    return (node.parts.events ?? []).flatMap((row, index): Finding[] =>
      row.from === "tool"
        ? [{ in: "events", path: [index, "from"], message: `row for '${row.emit}' is \`from: tool\`, but this node makes no tool calls (it has no api/toolExchange.yaml), so it never fires; use \`from: response\` for a step` }]
        : [],
    );
  },
});
