import { streamingTransports } from "../../schemas";
import { defineRule, type Finding } from "../rule";

export const serviceMethodMissing = defineRule({
  id: "service-method-missing",
  severity: "error",
  reads: ["interface", "service"],
  summary: "Every method an isService: true connector lists is defined in api/service.yaml.",
  check(node) {
    const connectors = node.parts.interface?.serviceConnectors ?? [];
    const defined = node.parts.service ?? {};
    const findings: Finding[] = [];
    connectors.forEach((connector, connectorIndex) => {
      if (!connector.isService) return;
      connector.methods.forEach((method, methodIndex) => {
        if (Object.hasOwn(defined, method)) return;
        const where = node.files.has("service") ? "api/service.yaml has no method of that name" : "there is no api/service.yaml";
        findings.push({
          in: "interface",
          path: ["serviceConnectors", connectorIndex, "methods", methodIndex],
          message: `connector '${connector.name}' lists method '${method}', but ${where}; define it there or remove it from the list`,
        });
      });
    });
    return findings;
  },
});

export const serviceMethodUnlisted = defineRule({
  id: "service-method-unlisted",
  severity: "error",
  reads: ["interface", "service"],
  summary: "Every method of api/service.yaml is listed by an isService: true connector (or it could never be called).",
  check(node) {
    const connectors = (node.parts.interface?.serviceConnectors ?? []).filter((connector) => connector.isService);
    if (!node.parts.interface) return [];
    const listed = new Set(connectors.flatMap((connector) => connector.methods));
    return Object.keys(node.parts.service ?? {})
      .filter((method) => !listed.has(method))
      .map((method) => ({
        in: "service",
        path: [method],
        at: "key",
        message: connectors.length
          ? `method '${method}' is not listed in the methods of connector '${connectors[0].name}'; add it there`
          : `method '${method}' is offered by no connector; add an mcp connector with isService: true listing it to interface.yaml`,
      }));
  },
});

export const serviceMethodDuplicate = defineRule({
  id: "service-method-duplicate",
  severity: "error",
  reads: ["interface"],
  summary: "A method is listed once, by one connector.",
  check(node) {
    const seen = new Set<string>();
    const findings: Finding[] = [];
    (node.parts.interface?.serviceConnectors ?? []).forEach((connector, connectorIndex) => {
      if (!connector.isService) return;
      connector.methods.forEach((method, methodIndex) => {
        if (seen.has(method)) {
          findings.push({ in: "interface", path: ["serviceConnectors", connectorIndex, "methods", methodIndex], message: `method '${method}' is listed more than once; list each method once` });
        }
        seen.add(method);
      });
    });
    return findings;
  },
});

export const serviceCallStreams = defineRule({
  id: "service-call-streams",
  severity: "error",
  reads: ["service"],
  summary: "A service method's calls do not stream: a tool answers once.",
  check(node) {
    return Object.entries(node.parts.service ?? {}).flatMap(([method, definition]) =>
      definition.calls.flatMap((call, index) =>
        streamingTransports.has(call.transport)
          ? [{ in: "service" as const, path: [method, "calls", index, "transport"], message: `call '${call.name}' of method '${method}' streams (transport: ${call.transport}); a tool answers once, so use json or text` }]
          : [],
      ),
    );
  },
});

export const methodRequiredUnknown = defineRule({
  id: "method-required-unknown",
  severity: "error",
  reads: ["service"],
  summary: "Every name in a method's `inputs.required` is one of its `inputs.properties`.",
  check(node) {
    return Object.entries(node.parts.service ?? {}).flatMap(([method, definition]) =>
      definition.inputs.required.flatMap((name, index) =>
        Object.hasOwn(definition.inputs.properties, name)
          ? []
          : [{ in: "service" as const, path: [method, "inputs", "required", index], message: `method '${method}' requires '${name}', which is not one of its inputs.properties` }],
      ),
    );
  },
});
