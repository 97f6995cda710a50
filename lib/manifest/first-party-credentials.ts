import type { Catalogue, CatalogueNode } from "./catalogue";
import { importedFolder } from "./node-files";

/**
 * A node type written for Switchboard, as shipped in nodes/: not under
 * nodes/imported/ (where `npm run nodes -- import` writes) and without an
 * `interface.source` (the imported-from record). Either marks it imported.
 */
export function isFirstParty(node: CatalogueNode): boolean {
  return node.manifest !== null && node.manifest.interface.source === undefined && !node.dir.split(/[\\/]/).includes(importedFolder);
}

const usersOf = new WeakMap<Catalogue, ReadonlyMap<string, ReadonlySet<string>>>();

/**
 * Which node types may take a credential set in the server's environment
 * (SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD>) without anyone's approval: the
 * first-party node types that declare a credential of that name, by name.
 * Built once per catalogue version.
 *
 * @example
 * firstPartyCredentialUsers(catalogue).get("openai") // Set { "openai-agent", "openai-responses", … }
 */
export function firstPartyCredentialUsers(catalogue: Catalogue): ReadonlyMap<string, ReadonlySet<string>> {
  const known = usersOf.get(catalogue);
  if (known) return known;
  const users = new Map<string, Set<string>>();
  for (const node of catalogue.nodes) {
    if (!isFirstParty(node)) continue;
    for (const credential of node.manifest!.interface.credentials) {
      const set = users.get(credential.name) ?? new Set<string>();
      set.add(node.manifest!.interface.name);
      users.set(credential.name, set);
    }
  }
  usersOf.set(catalogue, users);
  return users;
}
