import type { LoadedCatalogue, LoadedNode } from "../load-catalogue";
import type { NodeFileKey } from "../node-files";
import type { Severity } from "../problem";
import type { YamlPath } from "../source-file";

/** What a rule found: a place in one of the node's files and what to do about it. */
export interface Finding {
  in: NodeFileKey;
  path: YamlPath;
  /** Point at the key (e.g. an unknown name) rather than its value. */
  at?: "key" | "value";
  message: string;
  /** Overrides the rule's severity for this finding. */
  severity?: Severity;
}

/** One lint rule: a stable id, what it checks, and the check. */
export interface Rule {
  id: string;
  severity: Severity;
  /** One sentence for docs/nodes.md: what the rule asks of a node. */
  summary: string;
  /**
   * The files the rule reads. When one of them is there but broken (its own
   * problems say why), the rule is skipped for that node, so one broken file
   * does not bring a cascade of findings that are not really there.
   */
  reads: readonly NodeFileKey[];
  check(node: LoadedNode, catalogue: LoadedCatalogue): Finding[];
}

export function defineRule(rule: Rule): Rule {
  return rule;
}
