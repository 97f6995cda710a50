import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { contentFromForm, questionFields } from "./question-fields";

/** server-everything's own requested schema, read from the installed package (a real server's question, not one written here). */
async function everythingSchema(): Promise<Record<string, unknown>> {
  const file = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/tools/trigger-elicitation-request.js");
  const source = await readFile(file, "utf8");
  const start = source.indexOf("requestedSchema: ") + "requestedSchema: ".length;
  const end = source.indexOf("required: [\"name\"],", start) + 'required: ["name"],'.length;
  return new Function(`return (${source.slice(start, end)} })`)() as Record<string, unknown>;
}

describe("the answer form generated from a requested schema", () => {
  it("draws every kind server-everything asks for, with titles, descriptions, required and defaults", async () => {
    const fields = questionFields(await everythingSchema());
    const byName = Object.fromEntries(fields.map((field) => [field.name, field]));
    expect(byName.name).toMatchObject({ kind: "text", label: "String", required: true, description: "Your full, legal name" });
    expect(byName.check).toMatchObject({ kind: "boolean", label: "Boolean", required: false });
    expect(byName.firstLine).toMatchObject({ kind: "text", default: "It was a dark and stormy night." });
    expect(byName.email).toMatchObject({ kind: "text", format: "email" });
    expect(byName.homepage).toMatchObject({ kind: "text", format: "uri" });
    expect(byName.birthdate).toMatchObject({ kind: "text", format: "date" });
    expect(byName.integer).toMatchObject({ kind: "number", integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(byName.number).toMatchObject({ kind: "number", integer: false, minimum: 0, maximum: 1000, default: 3.14 });
    expect(byName.untitledSingleSelectEnum).toMatchObject({ kind: "choice", default: "Monica", options: expect.arrayContaining([{ value: "Ross", label: "Ross" }]) });
    expect(byName.titledSingleSelectEnum).toMatchObject({ kind: "choice", options: [{ value: "hero-1", label: "Superman" }, expect.anything(), expect.anything()] });
    expect(byName.legacyTitledEnum).toMatchObject({ kind: "choice", options: expect.arrayContaining([{ value: "pet-2", label: "Dogs" }]) });
    expect(byName.untitledMultipleSelectEnum).toMatchObject({ kind: "choices", minItems: 1, maxItems: 3, default: ["Guitar"] });
    expect(byName.titledMultipleSelectEnum).toMatchObject({ kind: "choices", options: expect.arrayContaining([{ value: "fish-2", label: "Salmon" }]) });
  });

  it("turns the submitted values into typed content, and says which field is wrong and why", async () => {
    const fields = questionFields(await everythingSchema());
    expect(contentFromForm(fields, { name: " Ada ", check: "true", integer: "7", number: "2.5", untitledMultipleSelectEnum: ["Piano", "Bass"], legacyTitledEnum: "pet-2", email: "" })).toEqual({
      ok: true,
      content: { name: "Ada", check: true, integer: 7, number: 2.5, untitledMultipleSelectEnum: ["Piano", "Bass"], legacyTitledEnum: "pet-2" },
    });
    expect(contentFromForm(fields, { name: "", integer: "7.5", number: "5000", untitledSingleSelectEnum: "Gunther", untitledMultipleSelectEnum: ["Guitar", "Piano", "Violin", "Drums"] })).toEqual({
      ok: false,
      errors: {
        name: "String is required.",
        integer: "Integer must be a whole number.",
        number: "Number in range 1-1000 must be at most 1000.",
        untitledSingleSelectEnum: '"Gunther" is not one of the choices.',
        untitledMultipleSelectEnum: "Choose at most 3.",
      },
    });
  });
});
