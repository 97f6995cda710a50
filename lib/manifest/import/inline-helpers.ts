import { parse } from "yaml";
import { parseTemplate } from "../../sandbox/template-syntax";

/** One named function of a package's shared/helpers.yaml: its parameters and its `return …` body. */
interface Helper {
  args: string[];
  body: string;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * The named functions a package declares in shared/helpers.yaml (`helpers:
 * { name: { args, body } }`), or undefined when it declares none or they are
 * malformed.
 */
export function packageHelpers(shared: ReadonlyMap<string, string>): ReadonlyMap<string, Helper> | undefined {
  const text = shared.get("helpers");
  if (text === undefined) return undefined;
  let declared: unknown;
  try {
    declared = (parse(text) as { helpers?: unknown } | null)?.helpers;
  } catch {
    return undefined;
  }
  if (!declared || typeof declared !== "object") return undefined;
  const helpers = new Map<string, Helper>();
  for (const [name, value] of Object.entries(declared as Record<string, unknown>)) {
    const { args, body } = (value ?? {}) as { args?: unknown; body?: unknown };
    if (!identifier.test(name) || !Array.isArray(args) || !args.every((arg) => typeof arg === "string" && identifier.test(arg)) || typeof body !== "string" || !/^\s*return\b/.test(body)) return undefined;
    helpers.set(name, { args: args as string[], body: body.trim() });
  }
  return helpers.size ? helpers : undefined;
}

/**
 * Switchboard has no shared functions, so an expression that calls
 * `helpers.<name>(…)` carries them: it becomes one expression that builds
 * the helpers object (each helper may call its siblings) and then evaluates
 * the original over it. Same sandbox, same limits, nothing shared between
 * evaluations.
 *
 * @example inlineHelpers("return helpers.double(2)", helpers) // "return ((helpers) => (double(2)…))(…)"
 */
export function inlineHelpers(text: string, helpers: ReadonlyMap<string, Helper>): string {
  if (!/\bhelpers\./.test(text)) return text;
  try {
    if (parseTemplate(text).kind !== "expression") return text;
  } catch {
    return text;
  }
  const start = text.indexOf("return") + "return".length;
  const expression = text.slice(start).trim().replace(/;\s*$/, "");
  const definitions = [...helpers].map(([name, helper]) => `helpers.${name} = function (${helper.args.join(", ")}) { ${helper.body} };`).join(" ");
  return `return ((helpers) => (${expression}))(((helpers) => { ${definitions} return helpers; })({}))`;
}
