import { isExpression } from "../../../sandbox/template-syntax";
import type { JsonSchema } from "../../schemas";
import { compileSchema } from "../../json-schema-check";
import { didYouMeanSuffix } from "../../did-you-mean";
import { defineRule, type Finding } from "../rule";
import { isTemplateField } from "./config";

/** Template strings (`{{ fixture.url }}`) get their value at test time; they are not checked here. */
const isTemplate = (value: unknown) => typeof value === "string" && (value.includes("{{") || isExpression(value));

export const testConfigMismatch = defineRule({
  id: "test-config-mismatch",
  severity: "error",
  reads: ["config", "test"],
  summary: "A test case's `config` sets only properties of config.yaml, with values that match their schema.",
  check(node) {
    const properties: Record<string, JsonSchema> = node.parts.config?.configSchema.properties ?? {};
    return (node.parts.test?.testData ?? []).flatMap((testCase, index) =>
      Object.entries(testCase.config).flatMap(([name, value]): Finding[] => {
        const path = ["testData", index, "config", name];
        const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
        if (!property) return [{ in: "test", path, at: "key", message: `case '${testCase.name}' sets config '${name}', which config.yaml does not declare${didYouMeanSuffix(name, Object.keys(properties))}` }];
        if (isTemplate(value) || isTemplateField(property)) return [];
        const compiled = compileSchema(property);
        if (compiled.ok && !compiled.validate(value)) return [{ in: "test", path, message: `case '${testCase.name}': config '${name}' ${compiled.errors()}` }];
        return [];
      }),
    );
  },
});

export const testUnknownMethod = defineRule({
  id: "test-unknown-method",
  severity: "error",
  reads: ["service", "run", "events", "toolExchange", "test"],
  summary: "A test case's `call.method` is a method of api/service.yaml, and a case without `call` belongs to a node that runs (api/run.yaml or a toolExchange).",
  check(node) {
    const methods = Object.keys(node.parts.service ?? {});
    const runs = node.files.has("run") || node.files.has("toolExchange") || node.files.has("events");
    return (node.parts.test?.testData ?? []).flatMap((testCase, index): Finding[] => {
      if (!testCase.call) {
        return runs ? [] : [{ in: "test", path: ["testData", index], message: `case '${testCase.name}' has no call, but the node does not run as a step; add call: { method, params }` }];
      }
      if (methods.includes(testCase.call.method)) return [];
      return [{ in: "test", path: ["testData", index, "call", "method"], message: `case '${testCase.name}' calls '${testCase.call.method}', which is not a method of api/service.yaml${didYouMeanSuffix(testCase.call.method, methods)}` }];
    });
  },
});

export const testParamsMismatch = defineRule({
  id: "test-params-mismatch",
  severity: "error",
  reads: ["service", "test"],
  summary: "A test case's `call.params` match the method's `inputs` schema.",
  check(node) {
    return (node.parts.test?.testData ?? []).flatMap((testCase, index): Finding[] => {
      const method = testCase.call && node.parts.service?.[testCase.call.method];
      if (!method || !testCase.call) return [];
      if (Object.values(testCase.call.params).some(isTemplate)) return [];
      const compiled = compileSchema(method.inputs);
      if (!compiled.ok || compiled.validate(testCase.call.params)) return [];
      return [{ in: "test", path: ["testData", index, "call", "params"], message: `case '${testCase.name}': params do not match the inputs of '${testCase.call.method}': ${compiled.errors()}` }];
    });
  },
});

export const testInputsUnknown = defineRule({
  id: "test-inputs-unknown",
  severity: "error",
  reads: ["interface", "test"],
  summary: "A test case's `inputs` name declared inputs of the node.",
  check(node) {
    const inputs = (node.parts.interface?.inputs ?? []).map((input) => input.name);
    if (!node.parts.interface) return [];
    return (node.parts.test?.testData ?? []).flatMap((testCase, index) =>
      Object.keys(testCase.inputs)
        .filter((name) => !inputs.includes(name))
        .map((name): Finding => ({ in: "test", path: ["testData", index, "inputs", name], at: "key", message: `case '${testCase.name}' sets input '${name}', which the node does not declare${didYouMeanSuffix(name, inputs)}` })),
    );
  },
});
