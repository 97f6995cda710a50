import { parse } from "yaml";
import { packageHelpers } from "./inline-helpers";
import { readPlatformUrls, scopeFields } from "./run-scope";

/** What a node uses that Switchboard cannot carry yet, found in its files; the first one found is reported. */
interface Blocker {
  feature: string;
  found(text: string, input: BlockerInput): boolean;
}

export interface BlockerInput {
  node: Record<string, unknown>;
  face: Record<string, unknown>;
  api: Record<string, unknown>;
  shared: ReadonlyMap<string, string>;
  /** Connection settings the import moves to config: they no longer count as credentials in expressions. */
  settings: ReadonlyArray<{ credential: string; field: string }>;
}

const blockers: Blocker[] = [
  { feature: "WebSocket transport (transport: ws)", found: (text) => /"transport":"ws"/.test(text) },
  { feature: "the platform's document store (docstore calls)", found: (text) => /"docstore":/.test(text) },
  { feature: "publishing to the chat UI (api/publish.yaml)", found: (_text, input) => "publish" in input.api },

  { feature: "run-context fields Switchboard does not have (scope.<field> beyond the run, workflow, node and user ids)", found: (text) => [...text.matchAll(/(?<![\w$.])scope\.([A-Za-z_$][\w$]*)/g)].some((match) => !Object.hasOwn(scopeFields, match[1])) },
  { feature: "a URL or value computed from a credential (credentials.<name> inside a `return` expression)", found: (text) => /"return [^"]*credentials\.[A-Za-z]/.test(text) || /"tokenUrl":"\{\{\s*credentials\./.test(text) },
  { feature: "shared helper functions (helpers.<name>() from shared/helpers.yaml)", found: (text, input) => /"return [^"]*\bhelpers\.[A-Za-z]/.test(text) && !packageHelpers(input.shared) },
  { feature: "prompt text modules (the `prompt` root)", found: (text) => /"return [^"]*[^.\w]prompt\.[A-Za-z]/.test(text) },
  { feature: "a host taken from an earlier reply (return 'https://' + calls.<name>.host …)", found: (text) => /"return 'https:\/\/' \+ calls\./.test(text) },
  { feature: "keyed state (state: merge / drain, or a state entry with its own `key`)", found: (text) => /"state":"(merge|drain|append|delete)"/.test(text) || /"state":"(save|read)"[^{}]*"key":/.test(text) || /"key":"[^"]*"[^{}]*"state":"(save|read)"/.test(text) },
  { feature: "a canvas annotation: nothing to run (no calls, events or methods)", found: (_text, input) => Object.keys(input.api).length === 0 },
];

/**
 * The one missing feature that stops a node from importing, or undefined.
 * The node's api/ files are searched together with the package's shared
 * fragments that they import.
 */
export function findBlocker(input: BlockerInput): string | undefined {
  const moved = (text: string) => input.settings.reduce((result, setting) => result.replaceAll(`credentials.${setting.credential}.${setting.field}`, `config.${setting.field}`), text);
  const used = [...JSON.stringify(input.api).matchAll(/"\$ref":"([^"#]+)/g)].map((match) => match[1]);
  const fragments = used.flatMap((stem) => {
    const text = input.shared.get(stem);
    if (text === undefined) return [];
    try {
      return [readPlatformUrls(moved(JSON.stringify(parse(text))))];
    } catch {
      return [];
    }
  });
  const text = [readPlatformUrls(JSON.stringify(input.api)), ...fragments].join("\n");
  return blockers.find((blocker) => blocker.found(text, input))?.feature;
}
