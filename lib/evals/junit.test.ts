import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { junitReport } from "./junit";

const schema = { fileName: "junit.xsd", contents: readFileSync(path.join(import.meta.dirname, "..", "..", "testing", "evals", "junit.fixture.xsd"), "utf8") };

/** The report checked by libxml2's own XML Schema validator (xmllint, compiled to WebAssembly). */
async function validate(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const result = await validateXML({ xml: { fileName: "report.xml", contents: xml }, schema });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}

const at = new Date("2026-12-02T10:00:00.000Z");

describe("junitReport", () => {
  it("is valid against the JUnit schema with passes, failures (diff in the body) and errors", async () => {
    const xml = junitReport(
      [
        { name: "5 km in miles", file: "tests/cases/demo.case.json", durationMs: 1234, pass: true, failures: [], diff: null },
        { name: 'prompt "changed" & <diverged>', file: "tests/cases/edited.case.json", durationMs: 20, pass: false, failures: ["agent: model turn agent#1/t1 was asked differently: system: expected \"a\", got \"b\""], diff: "first divergence: agent#1/turn 1\n≠ agent#1  node agent (offline-agent)\u0007" },
        { name: "gone", file: "tests/cases/gone.case.json", durationMs: 0, pass: false, error: 'the document has no node "converter"', failures: ['the document has no node "converter"'], diff: null },
      ],
      { timestamp: at, hostname: "ci-runner" },
    );
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<testsuite package="switchboard" id="0" name="workflow test" timestamp="2026-12-02T10:00:00" hostname="ci-runner" tests="3" failures="1" errors="1" time="1.254">');
    expect(xml).toContain('<testcase name="5 km in miles" classname="tests/cases/demo.case.json" time="1.234"/>');
    expect(xml).toContain('<failure message="agent: model turn agent#1/t1 was asked differently: system: expected &quot;a&quot;, got &quot;b&quot;" type="case-failed">');
    expect(xml).toContain("first divergence: agent#1/turn 1\n≠ agent#1");
    expect(xml).toContain('<error message="the document has no node &quot;converter&quot;" type="bad-input">');
  });

  it("is valid with no cases", async () => {
    expect((await validate(junitReport([], { timestamp: at }))).valid).toBe(true);
  });

  it("the schema catches a report missing what CI systems need", async () => {
    const broken = junitReport([], { timestamp: at }).replace(/ hostname="[^"]*"/, "");
    const result = await validate(broken);
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("hostname");
  });
});
