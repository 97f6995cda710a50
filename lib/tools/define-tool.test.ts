import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defaultToolTimeoutMs, defineTool, type DefinedToolSpec, tool } from "./define-tool";
import { ToolDefinitionError } from "./tool-definition-error";

const context = { runId: "run-1", nodeId: "agent", nodeRunId: "agent-run", callId: "call_1" };

const spec = (overrides: Partial<DefinedToolSpec> = {}): DefinedToolSpec => ({
  name: "lookup_order",
  description: "Fetch an order by id from the shop",
  parameters: z.object({ orderId: z.string().min(1), quantity: z.number().int().default(1) }),
  execute: ({ orderId, quantity }) => ({ orderId, quantity, status: "shipped" }),
  ...overrides,
});

function definitionError(make: () => unknown): ToolDefinitionError {
  try {
    make();
  } catch (error) {
    if (error instanceof ToolDefinitionError) return error;
    throw error;
  }
  throw new Error("expected a ToolDefinitionError");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("defineTool at definition time", () => {
  it.each([["look up"], ["lookup.order"], [""], ["x".repeat(65)], [42]])("refuses the bad name %j", (name) => {
    expect(definitionError(() => defineTool(spec({ name: name as string })))).toMatchObject({ code: "invalid-name", place: { field: "name" } });
  });

  it.each([["save_to_memory"], ["read_memory"], ["get_current_time"]])("refuses the built-in name %s", (name) => {
    const error = definitionError(() => tool(spec({ name })));
    expect(error).toMatchObject({ code: "builtin-name", place: { tool: name, field: "name" } });
    expect(error.message).toContain("built-in");
  });

  it.each([[undefined], [""], ["   "]])("refuses a missing description (%j)", (description) => {
    expect(definitionError(() => defineTool(spec({ description: description as string })))).toMatchObject({ code: "missing-description", place: { tool: "lookup_order", field: "description" } });
  });

  it("refuses parameters that are not a zod object schema, or have no JSON form", () => {
    expect(definitionError(() => defineTool(spec({ parameters: { orderId: "string" } as never })))).toMatchObject({ code: "invalid-parameters" });
    expect(definitionError(() => defineTool(spec({ parameters: z.string() })))).toMatchObject({ code: "invalid-parameters" });
    expect(definitionError(() => defineTool(spec({ parameters: z.object({ when: z.date() }) })))).toMatchObject({ code: "invalid-parameters" });
  });

  it("refuses a negative or fractional timeout", () => {
    expect(definitionError(() => defineTool(spec({ timeoutMs: -1 })))).toMatchObject({ code: "invalid-timeout" });
    expect(definitionError(() => defineTool(spec({ timeoutMs: 1.5 })))).toMatchObject({ code: "invalid-timeout" });
  });

  it("carries the draft-7 input JSON Schema of its parameters, the defaults and the taint flag", () => {
    const defined = tool(spec());
    expect(defined).toMatchObject({ name: "lookup_order", description: "Fetch an order by id from the shop", taints: false, timeoutMs: 30_000 });
    expect(defaultToolTimeoutMs).toBe(30_000);
    expect(defined.inputSchema).toEqual({
      type: "object",
      properties: { orderId: { type: "string", minLength: 1 }, quantity: { type: "integer", default: 1, minimum: expect.any(Number), maximum: expect.any(Number) } },
      required: ["orderId"],
    });
    expect(defineTool(spec({ taints: true })).taints).toBe(true);
    expect(tool).toBe(defineTool);
  });
});

describe("a defined tool's calls", () => {
  it("parses the arguments with zod on every call: defaults filled, invalid ones an error result naming the field", async () => {
    const execute = vi.fn(({ orderId, quantity }: { orderId: string; quantity: number }) => `${orderId} x${quantity}`);
    const defined = defineTool(spec({ execute: execute as never }));
    expect(await defined.execute({ orderId: "A1" }, context)).toEqual({ output: "A1 x1", isError: false, ran: true });
    const wrongType = await defined.execute({ orderId: 7 }, context);
    expect(wrongType).toMatchObject({ isError: true, ran: false });
    expect(wrongType.output).toMatch(/^Invalid arguments for lookup_order: orderId: /);
    const secondBadCall = await defined.execute({ orderId: "A2", quantity: 1.5 }, context);
    expect(secondBadCall.output).toMatch(/quantity: /);
    expect(await defined.execute(undefined, context)).toMatchObject({ isError: true, output: expect.stringContaining("orderId") });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledWith({ orderId: "A1", quantity: 1 }, expect.objectContaining({ runId: "run-1", nodeId: "agent", callId: "call_1", signal: expect.any(AbortSignal) }));
  });

  it("answers objects as JSON with a structured result, and a throw as an error result", async () => {
    expect(await defineTool(spec()).execute({ orderId: "A1" }, context)).toEqual({
      output: JSON.stringify({ orderId: "A1", quantity: 1, status: "shipped" }),
      structured: { orderId: "A1", quantity: 1, status: "shipped" },
      isError: false,
      ran: true,
    });
    const failing = defineTool(spec({ execute: () => Promise.reject(new Error("the shop is closed")) }));
    expect(await failing.execute({ orderId: "A1" }, context)).toEqual({ output: "lookup_order failed: the shop is closed", isError: true, ran: true });
  });

  it("cuts a hung call at its own timeout and aborts the signal it was given", async () => {
    let seen: AbortSignal | undefined;
    const hung = defineTool(spec({ timeoutMs: 50, execute: (_args, { signal }) => ((seen = signal), new Promise(() => {})) }));
    expect(await hung.execute({ orderId: "A1" }, context)).toEqual({ output: "lookup_order timed out after 50 ms", isError: true, ran: false });
    expect(seen?.aborted).toBe(true);
  });

  it("uses 30 s when no timeout is given", async () => {
    vi.useFakeTimers();
    const hung = defineTool(spec({ execute: () => new Promise(() => {}) }));
    const call = hung.execute({ orderId: "A1" }, context);
    await vi.advanceTimersByTimeAsync(29_999);
    let settled = false;
    void call.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toEqual({ output: "lookup_order timed out after 30000 ms", isError: true, ran: false });
  });

  it("has no timeout at 0: a slow call finishes", async () => {
    vi.useFakeTimers();
    const slow = defineTool(spec({ timeoutMs: 0, execute: () => new Promise((resolve) => setTimeout(() => resolve("finally"), 10 * 60_000)) }));
    const call = slow.execute({ orderId: "A1" }, context);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(await call).toEqual({ output: "finally", isError: false, ran: true });
  });

  it("stops waiting when the run is cancelled", async () => {
    const controller = new AbortController();
    const hung = defineTool(spec({ timeoutMs: 0, execute: () => new Promise(() => {}) }));
    const call = hung.execute({ orderId: "A1" }, { ...context, signal: controller.signal });
    controller.abort();
    expect(await call).toMatchObject({ isError: true, ran: false, output: expect.stringContaining("cancelled") });
  });
});
