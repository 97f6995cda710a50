import type { Catalogue } from "../catalogue";
import { isBroken, type LoadedCatalogue, type LoadedNode, loadCatalogue } from "../load-catalogue";
import { type Problem, sortProblems } from "../problem";
import { locate, problemAt } from "../source-file";
import type { Finding, Rule } from "./rule";
import { nodeRules } from "./rules";

function toProblem(node: LoadedNode, rule: Rule, finding: Finding): Problem {
  const locator = node.locators[finding.in];
  const fallback = node.sources[finding.in];
  const place = locator ? locator(finding.path, finding.at ?? "value") : fallback ? { source: fallback, path: finding.path } : undefined;
  const file = place?.source.file ?? `${node.dir}/${finding.in}`;
  const position = place ? locate(place.source, place.path, finding.at ?? "value") : { line: 1, column: 1 };
  return { ...problemAt(file, position, rule.id, finding.message, finding.severity ?? rule.severity), node: node.name };
}

/** Runs every lint rule over a loaded catalogue; a rule that throws is reported, never raised. */
export function lintLoaded(catalogue: LoadedCatalogue, rules: readonly Rule[] = nodeRules): Catalogue {
  const nodes = catalogue.nodes.map((node) => {
    const problems = [...node.problems];
    for (const rule of rules) {
      if (rule.reads.some((key) => isBroken(node, key))) continue;
      try {
        problems.push(...rule.check(node, catalogue).map((finding) => toProblem(node, rule, finding)));
      } catch (error) {
        problems.push({ ...problemAt(`${node.dir}/interface.yaml`, { line: 1, column: 1 }, "lint-internal", `rule ${rule.id} failed on this node (${(error as Error).message}); this is a bug in Switchboard, please report it`), node: node.name });
      }
    }
    return { name: node.name, dir: node.dir, manifest: node.manifest, problems: sortProblems(problems) };
  });
  // A broken protocol is reported once, though every node that imports it meets it.
  const seen = new Set<string>();
  const problems = sortProblems([...catalogue.problems, ...nodes.flatMap((node) => node.problems)]).filter((problem) => {
    const key = `${problem.file}:${problem.line}:${problem.column}:${problem.rule}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { root: catalogue.root, nodes, protocols: [...catalogue.protocols.keys()], problems };
}

/**
 * Loads nodes/ and lints it: every node with its manifest (or null when its
 * interface.yaml is unusable) and every problem at a file, line and column.
 *
 * @example const { nodes, problems } = await lintNodes("nodes");
 */
export async function lintNodes(nodesDir: string, options: { displayBase?: string } = {}): Promise<Catalogue> {
  return lintLoaded(await loadCatalogue(nodesDir, options.displayBase));
}
