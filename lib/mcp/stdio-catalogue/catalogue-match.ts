import { folderPlaceholder, templatePattern } from "./catalogue-file";
import { parameterDefault, parameterProblem } from "./catalogue-parameters";
import type { CatalogueEntry, StdioCatalogue } from "./read-catalogue";

/** A stdio command line as an entry stores it. */
export interface StoredCommandLine {
  id?: string;
  name?: string;
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
}

export type ParameterValues = Record<string, string>;

/** A problem with what a person filled in, at its field (`parameters.root`, `env.API_TOKEN`, `catalogue`). */
export interface FieldProblem {
  field: string;
  message: string;
}

export type CatalogueMatch =
  | { ok: true; entry: CatalogueEntry; parameters: ParameterValues }
  | {
      ok: false;
      reason: string;
      /** The entry's field at fault when the command line matched and a variable did not (`env.NAME`). */
      field?: string;
      /** A catalogue entry (JSON) the administrator could add to allow this command line exactly. */
      catalogueLine: string;
    };

/**
 * The catalogue entry a stored command line is an instance of: the same
 * command (as written in the catalogue, or the executable it resolved to),
 * each argument equal to its template with a valid value in place of its
 * parameter, and only declared environment variables. An entry saved before
 * the catalogue existed, or since removed from it, matches nothing and is
 * refused with the reason and the line that would allow it.
 */
export function matchCatalogue(line: StoredCommandLine, catalogue: StdioCatalogue): CatalogueMatch {
  const catalogueLine = suggestedLine(line);
  if (!catalogue.ok) return { ok: false, reason: `the stdio catalogue is refused: ${catalogue.problem}`, catalogueLine };
  const candidates = catalogue.entries.filter((entry) => entry.command === line.command || (entry.executable !== null && entry.executable === line.command));
  if (!candidates.length) return { ok: false, reason: `no entry of the stdio catalogue (${catalogue.file}) runs '${line.command.slice(0, 200)}'`, catalogueLine };
  const reasons: string[] = [];
  for (const entry of candidates) {
    const attempt = matchEntry(entry, line);
    if (attempt.ok) return { ok: true, entry, parameters: attempt.parameters };
    // The command line is this entry's and only a variable is wrong: that variable is the problem.
    if (attempt.field) return { ok: false, reason: attempt.reason, field: attempt.field, catalogueLine };
    reasons.push(`'${entry.id}' (${entry.place}): ${attempt.reason}`);
  }
  return { ok: false, reason: `the command line matches no entry of the stdio catalogue: ${reasons.slice(0, 3).join("; ")}`, catalogueLine };
}

function matchEntry(entry: CatalogueEntry, line: StoredCommandLine): { ok: true; parameters: ParameterValues } | { ok: false; reason: string; field?: string } {
  if (line.args.length !== entry.args.length) return { ok: false, reason: `it takes ${entry.args.length} arguments, not ${line.args.length}` };
  const parameters: ParameterValues = {};
  for (const [index, template] of entry.args.entries()) {
    const stored = line.args[index];
    const { prefix, name, suffix } = splitTemplate(template, entry.folder);
    if (name === null) {
      if (stored !== prefix) return { ok: false, reason: `argument ${index + 1} is '${stored.slice(0, 80)}', the catalogue says '${prefix.slice(0, 80)}'` };
      continue;
    }
    if (!stored.startsWith(prefix) || !stored.endsWith(suffix) || stored.length < prefix.length + suffix.length) {
      return { ok: false, reason: `argument ${index + 1} ('${stored.slice(0, 80)}') is not of the form '${template.slice(0, 80)}'` };
    }
    const value = stored.slice(prefix.length, stored.length - suffix.length);
    const problem = parameterProblem(entry.parameters[name], value);
    if (problem) return { ok: false, reason: `parameter ${name}: ${problem}` };
    if (name in parameters && parameters[name] !== value) return { ok: false, reason: `parameter ${name} is given two values` };
    parameters[name] = value;
  }
  const envProblem = environmentProblem(entry, line.env ?? {});
  return envProblem ? { ok: false, reason: envProblem.message, field: envProblem.field } : { ok: true, parameters };
}

/**
 * Only declared variables, none of them fixed by the catalogue, values
 * matching their pattern. As stored, a value holding a `{{ secrets.NAME }}`
 * is checked when it is filled in (`filled`: at start, every value is).
 */
export function environmentProblem(entry: CatalogueEntry, env: Readonly<Record<string, string>>, options: { filled?: boolean } = {}): FieldProblem | null {
  for (const [key, value] of Object.entries(env)) {
    const spec = entry.env[key];
    const field = `env.${key}`;
    if (!spec) {
      const declared = Object.keys(entry.env).filter((name) => entry.env[name].value === undefined);
      return { field, message: `${key} is not declared by the catalogue entry '${entry.id}'${declared.length ? ` (it declares ${declared.join(", ")})` : " (it declares no variables)"}` };
    }
    if (spec.value !== undefined) return { field, message: `${key} is set by the catalogue entry '${entry.id}' and cannot be changed` };
    if (spec.pattern && (options.filled || !value.includes("{{")) && !new RegExp(`^(?:${spec.pattern})$`, "u").test(value)) return { field, message: `${key} does not match the pattern ${spec.pattern}` };
  }
  return null;
}

/**
 * The arguments of a catalogue entry with its parameters filled in (or
 * their defaults); every value checked, and a value for an undeclared
 * parameter refused.
 */
export function renderArguments(entry: CatalogueEntry, given: Readonly<Record<string, string>>): { ok: true; args: string[]; parameters: ParameterValues } | { ok: false; problem: FieldProblem } {
  for (const key of Object.keys(given)) {
    if (!(key in entry.parameters)) return { ok: false, problem: { field: `parameters.${key}`, message: `${key} is not a parameter of '${entry.id}'` } };
  }
  const parameters: ParameterValues = {};
  for (const [key, spec] of Object.entries(entry.parameters)) {
    const value = given[key]?.trim() || parameterDefault(spec) || "";
    const problem = parameterProblem(spec, value);
    if (problem) return { ok: false, problem: { field: `parameters.${key}`, message: `${spec.title ?? key}: ${problem}` } };
    parameters[key] = value;
  }
  const args = entry.args.map((template) => {
    const { prefix, name, suffix } = splitTemplate(template, entry.folder);
    return name === null ? prefix : `${prefix}${parameters[name]}${suffix}`;
  });
  return { ok: true, args, parameters };
}

/** `{{ folder }}` filled in, then the text around the one parameter (name null: no parameter). */
function splitTemplate(template: string, folder: string): { prefix: string; name: string | null; suffix: string } {
  const filled = template.replace(templatePattern, (whole, key: string) => (key === folderPlaceholder ? folder : whole));
  const match = new RegExp(templatePattern.source).exec(filled);
  if (!match) return { prefix: filled, name: null, suffix: "" };
  return { prefix: filled.slice(0, match.index), name: match[1], suffix: filled.slice(match.index + match[0].length) };
}

function suggestedLine(line: StoredCommandLine): string {
  const env = Object.fromEntries(Object.keys(line.env ?? {}).map((key) => [key, {}]));
  const spec = { title: line.name ?? line.id ?? line.command, command: line.command, args: line.args, ...(Object.keys(env).length ? { env } : {}) };
  return `"${line.id ?? "server"}": ${JSON.stringify(spec)}`;
}
