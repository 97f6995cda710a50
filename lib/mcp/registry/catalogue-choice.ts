import { environmentProblem, renderArguments, type StdioCatalogue } from "../stdio-catalogue";
import type { EntryProblem } from "./entry-problem";

/**
 * A stdio entry written as a choice from the stdio catalogue, the way the
 * form and `npm run servers -- add` write one:
 *
 *   { "transport": "stdio", "catalogue": "filesystem", "parameters": { "root": "/srv/docs" } }
 *
 * becomes the command line it stands for (`command` and `args` from the
 * catalogue, each parameter checked against its declaration). Anything else
 * passes through unchanged: a command line given directly is matched to the
 * catalogue by the policy check like any stored one.
 */
export function expandCatalogueChoice(input: unknown, catalogue: StdioCatalogue): { ok: true; input: unknown } | { ok: false; problem: EntryProblem } {
  if (typeof input !== "object" || input === null || Array.isArray(input) || !("catalogue" in input)) return { ok: true, input };
  const { catalogue: chosen, parameters, ...rest } = input as Record<string, unknown>;
  if (rest.transport !== "stdio") return { ok: false, problem: { field: "catalogue", message: "only a stdio server is chosen from the stdio catalogue" } };
  if ("command" in rest || "args" in rest) return { ok: false, problem: { field: "catalogue", message: "give a catalogue entry and its parameters, not a command line as well" } };
  if (!catalogue.ok) return { ok: false, problem: { field: "catalogue", message: `the stdio catalogue is refused: ${catalogue.problem}` } };
  const entry = catalogue.entries.find((candidate) => candidate.id === chosen);
  if (!entry) {
    const listed = catalogue.entries.map((candidate) => candidate.id).join(", ") || "nothing";
    return { ok: false, problem: { field: "catalogue", message: `${typeof chosen === "string" && chosen ? `'${chosen.slice(0, 64)}' is not an entry of` : "choose an entry of"} the stdio catalogue (${catalogue.file}); it lists ${listed}` } };
  }
  const values = parameterValues(parameters);
  if (!values.ok) return values;
  const rendered = renderArguments(entry, values.values);
  if (!rendered.ok) return { ok: false, problem: rendered.problem };
  const envProblem = environmentProblem(entry, isRecord(rest.env) ? (rest.env as Record<string, string>) : {});
  if (envProblem) return { ok: false, problem: envProblem };
  return { ok: true, input: { ...rest, command: entry.command, args: rendered.args } };
}

function parameterValues(parameters: unknown): { ok: true; values: Record<string, string> } | { ok: false; problem: EntryProblem } {
  if (parameters === undefined) return { ok: true, values: {} };
  if (!isRecord(parameters)) return { ok: false, problem: { field: "parameters", message: "parameters is an object of values by name" } };
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(parameters)) {
    if (typeof value !== "string" && typeof value !== "number") return { ok: false, problem: { field: `parameters.${key}`, message: `${key} is text or a number` } };
    values[key] = String(value);
  }
  return { ok: true, values };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
