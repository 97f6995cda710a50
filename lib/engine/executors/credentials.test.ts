import { describe, expect, it } from "vitest";
import { secretForms } from "./credentials";

describe("secretForms", () => {
  it("registers each value as written, URL-encoded, and a username with its password as basic auth sends them", () => {
    const forms = secretForms({ username: "ada", password: "p@ss word/1" });
    expect(forms).toContain("p@ss word/1");
    expect(forms).toContain("p%40ss%20word%2F1");
    expect(forms).toContain(Buffer.from("ada:p@ss word/1").toString("base64"));
  });

  it("skips empty values", () => {
    expect(secretForms({ apiKey: "" })).toEqual([]);
  });
});
