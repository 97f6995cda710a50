import { beforeAll, describe, expect, it } from "vitest";
import { renderText, renderValue } from "./render-template";
import { createSandbox, type Evaluator, type Sandbox } from "./sandbox";
import { SandboxError } from "./sandbox-error";
import { TemplateError } from "./template-error";
import { TemplateSyntaxError } from "./template-syntax";

const scope = {
  config: { maxTurns: 5, model: "small", stop: ["\n"], stream: true, nothing: null },
  params: { query: "green tea", id: "a/b c", tags: ["x", "y"] },
  calls: { search: { items: [{ id: 7, name: "Sencha" }] } },
};

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});

/** An evaluator double that fails the test if anything reaches it. */
const noSandbox: Evaluator = {
  evaluate: (source) => {
    throw new Error(`unexpected evaluation of ${source}`);
  },
};

async function templateErrorOf(action: () => Promise<unknown>): Promise<TemplateError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error("expected a TemplateError");
}

describe("renderValue", () => {
  it("keeps the type of a whole-value template", async () => {
    expect(await renderValue("{{ config.maxTurns }}", scope, noSandbox)).toBe(5);
    expect(await renderValue("  {{ config.stream }} ", scope, noSandbox)).toBe(true);
    expect(await renderValue("{{ config.stop }}", scope, noSandbox)).toEqual(["\n"]);
    expect(await renderValue("{{ config.nothing }}", scope, noSandbox)).toBeNull();
    expect(await renderValue("{{ config.absent }}", scope, noSandbox)).toBeUndefined();
  });

  it("interpolates values into text", async () => {
    expect(await renderValue("Find {{ params.query }} ({{ config.maxTurns }} turns, stream {{ config.stream }})", scope, noSandbox)).toBe(
      "Find green tea (5 turns, stream true)",
    );
    expect(await renderValue("tags={{ params.tags }} first={{ calls.search.items.0 }}", scope, noSandbox)).toBe(
      'tags=["x","y"] first={"id":7,"name":"Sencha"}',
    );
    expect(await renderValue("[{{ config.nothing }}{{ config.absent }}]", scope, noSandbox)).toBe("[]");
  });

  it("leaves literals and non-strings as they are", async () => {
    expect(await renderValue("plain text", scope, noSandbox)).toBe("plain text");
    expect(await renderValue(3, scope, noSandbox)).toBe(3);
    expect(await renderValue(null, scope, noSandbox)).toBeNull();
    expect(await renderValue(false, scope, noSandbox)).toBe(false);
  });

  it("runs return expressions in the sandbox over the scope", async () => {
    expect(await renderValue("return calls.search.items.map(i => i.name)", scope, sandbox)).toEqual(["Sencha"]);
    expect(await renderValue("return config.maxTurns * 2", scope, sandbox)).toBe(10);
  });

  it("walks objects and arrays without changing the input", async () => {
    const request = {
      model: "{{ config.model }}",
      max_turns: "{{ config.maxTurns }}",
      messages: [{ role: "user", content: "Find {{ params.query }}" }],
      ids: "return calls.search.items.map(i => i.id)",
      fixed: 1,
    };
    const copy = structuredClone(request);
    expect(await renderValue(request, scope, sandbox)).toEqual({
      model: "small",
      max_turns: 5,
      messages: [{ role: "user", content: "Find green tea" }],
      ids: [7],
      fixed: 1,
    });
    expect(request).toEqual(copy);
  });

  it("keeps a __proto__ key of a manifest object as data", async () => {
    const value = JSON.parse('{"__proto__": {"polluted": "{{ params.query }}"}}') as unknown;
    const rendered = await renderValue(value, scope, noSandbox) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rendered, "__proto__")?.value).toEqual({ polluted: "green tea" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("cannot reach prototypes through template paths", async () => {
    expect(await renderValue("{{ config.constructor }}", scope, noSandbox)).toBeUndefined();
    expect(await renderValue("{{ params.__proto__.polluted }}", scope, noSandbox)).toBeUndefined();
    expect(await renderValue("x{{ config.constructor.prototype }}y", scope, noSandbox)).toBe("xy");
  });

  it("names the template and where it sits when rendering fails", async () => {
    const error = await templateErrorOf(() => renderValue({ body: { items: ["ok", "{{ params.query"] } }, scope, noSandbox));
    expect(error.template).toBe("{{ params.query");
    expect(error.location).toBe("body.items.1");
    expect(error.cause).toBeInstanceOf(TemplateSyntaxError);
    expect(error.message).toMatch(/^body\.items\.1: cannot render "\{\{ params\.query": /);
  });

  it("carries the sandbox's error when an expression fails", async () => {
    const error = await templateErrorOf(() => renderValue({ value: "return params.missing.deeper" }, scope, sandbox));
    expect(error.location).toBe("value");
    expect(error.cause).toBeInstanceOf(SandboxError);
    expect((error.cause as SandboxError).code).toBe("thrown");
  });
});

describe("renderText", () => {
  it("encodes only the values a path inserts", async () => {
    expect(await renderText("/items/{{ params.id }}/tags/{{ params.tags.0 }}", scope, noSandbox, encodeURIComponent)).toBe(
      "/items/a%2Fb%20c/tags/x",
    );
    expect(await renderText("{{ params.id }}", scope, noSandbox, encodeURIComponent)).toBe("a%2Fb%20c");
  });

  it("renders whole values and literals to text", async () => {
    expect(await renderText("{{ config.maxTurns }}", scope, noSandbox)).toBe("5");
    expect(await renderText("{{ config.absent }}", scope, noSandbox)).toBe("");
    expect(await renderText("/plain/path?a=b", scope, noSandbox, encodeURIComponent)).toBe("/plain/path?a=b");
  });

  it("takes an expression's result as written, unencoded", async () => {
    expect(await renderText("return '/items/' + params.tags.join('/')", scope, sandbox, encodeURIComponent)).toBe("/items/x/y");
    expect(await renderText("return config.maxTurns + 1", scope, sandbox)).toBe("6");
  });

  it("throws a TemplateError carrying the source", async () => {
    const error = await templateErrorOf(() => renderText("/items/{{ }}", scope, noSandbox));
    expect(error.template).toBe("/items/{{ }}");
    expect(error.location).toBe("");
  });
});
