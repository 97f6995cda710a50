import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CustomToolRegistry } from "./custom-tool-registry";
import { defineTool } from "./define-tool";

const make = (description: string) => defineTool({ name: "fetch_page", description, parameters: z.object({ url: z.string() }), execute: () => "page" });

describe("CustomToolRegistry", () => {
  it("finds tools by name", () => {
    const fetchPage = make("Fetch a page");
    const registry = new CustomToolRegistry([fetchPage]);
    expect(registry.get("fetch_page")).toBe(fetchPage);
    expect(registry.has("lookup_order")).toBe(false);
    expect(registry.names()).toEqual(["fetch_page"]);
  });

  it("throws at construction when two different tools share a name", () => {
    expect(() => new CustomToolRegistry([make("Fetch a page"), make("Fetch a page, again")])).toThrow(
      expect.objectContaining({ name: "ToolDefinitionError", code: "duplicate-name", place: { tool: "fetch_page", field: "tools.1" } }),
    );
  });

  it("counts the same definition listed twice once", () => {
    const fetchPage = make("Fetch a page");
    expect(new CustomToolRegistry([fetchPage, fetchPage]).names()).toEqual(["fetch_page"]);
  });

  it("refuses something that is not a defineTool() result", () => {
    expect(() => new CustomToolRegistry([{ name: "x" } as never])).toThrow(expect.objectContaining({ code: "invalid-tool-source" }));
  });
});
