/** One case's outcome, as a JUnit report needs it. */
export interface JunitCase {
  name: string;
  /** The case file: the report's class name, so CI groups cases by file. */
  file: string;
  durationMs: number;
  pass: boolean;
  /** Set when the case could not run at all (bad input): an <error>, not a <failure>. */
  error?: string;
  failures: string[];
  /** The diff from the recorded run, for the failure's body. */
  diff: string | null;
}

/**
 * The cases as a JUnit XML report in the shape of the Apache Ant JUnit
 * schema that CI systems read (GitHub, GitLab, Jenkins, CircleCI): one
 * <testsuite> with every attribute the schema requires, a <testcase> per
 * case, a <failure> (message: the first reason; body: every reason and the
 * diff) or an <error> for a case that could not run.
 */
export function junitReport(cases: readonly JunitCase[], options: { suite?: string; timestamp?: Date; hostname?: string } = {}): string {
  const timestamp = (options.timestamp ?? new Date()).toISOString().slice(0, 19);
  const failures = cases.filter((item) => !item.pass && !item.error).length;
  const errors = cases.filter((item) => item.error).length;
  const time = seconds(cases.reduce((sum, item) => sum + item.durationMs, 0));
  const suite = options.suite ?? "workflow test";
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites>`,
    `  <testsuite package="switchboard" id="0" name="${attribute(suite)}" timestamp="${timestamp}" hostname="${attribute(options.hostname ?? "localhost")}" tests="${cases.length}" failures="${failures}" errors="${errors}" time="${time}">`,
    `    <properties/>`,
  ];
  for (const item of cases) {
    const head = `    <testcase name="${attribute(item.name)}" classname="${attribute(item.file)}" time="${seconds(item.durationMs)}"`;
    if (item.pass) {
      lines.push(`${head}/>`);
      continue;
    }
    const body = [...item.failures, ...(item.diff ? ["", item.diff] : [])].join("\n");
    const element = item.error ? "error" : "failure";
    const message = item.error ?? item.failures[0] ?? "failed";
    lines.push(`${head}>`, `      <${element} message="${attribute(message)}" type="${item.error ? "bad-input" : "case-failed"}">${text(body)}</${element}>`, `    </testcase>`);
  }
  lines.push(`    <system-out/>`, `    <system-err/>`, `  </testsuite>`, `</testsuites>`, "");
  return lines.join("\n");
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** XML 1.0 refuses most control characters outright: they are dropped. */
function clean(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");
}

function text(value: string): string {
  return clean(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attribute(value: string): string {
  return text(value).replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}
