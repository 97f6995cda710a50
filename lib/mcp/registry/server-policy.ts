import { allowedPrivateOrigins, checkUrl, privateOriginsVariable } from "../../security";
import { matchCatalogue, stdioCatalogueFromEnvironment, type StdioCatalogue } from "../stdio-catalogue";
import type { EntryProblem } from "./entry-problem";
import type { ServerEntry } from "./server-entry";

/** What this machine allows, read from its environment at each check. */
export interface ServerPolicy {
  /** SWITCHBOARD_STDIO_DISABLED=true: no stdio server may be saved, loaded or started. */
  stdioDisabled: boolean;
  /** SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: the private origins a server URL may have, exactly; none by default. */
  allowedPrivateOrigins: readonly string[];
  /** The stdio catalogue every stdio command line must match (default: the machine's, see catalogueLocation). */
  stdioCatalogue?: StdioCatalogue;
}

/** The catalogue a policy holds, else the machine's (read again only when its file changes). */
export function stdioCatalogueOf(policy: ServerPolicy): StdioCatalogue {
  return policy.stdioCatalogue ?? stdioCatalogueFromEnvironment();
}

export function serverPolicyFromEnvironment(environment: Readonly<Record<string, string | undefined>> = process.env): ServerPolicy {
  return {
    stdioDisabled: environment.SWITCHBOARD_STDIO_DISABLED === "true",
    allowedPrivateOrigins: allowedPrivateOrigins(environment),
  };
}

/**
 * The rules that depend on the machine rather than the entry: stdio switched
 * off, a stdio command line that matches no entry of the stdio catalogue
 * (refused with the catalogue line that would allow it), and the URL guard (a host that is, or resolves to, a private,
 * loopback, link-local, unspecified or metadata address is refused). Runs
 * after the schema, on every write and every read.
 */
export async function checkServerPolicy(entry: ServerEntry, policy: ServerPolicy): Promise<EntryProblem | null> {
  if (entry.transport === "stdio") {
    if (policy.stdioDisabled) return { field: "transport", message: "stdio servers are switched off on this machine (SWITCHBOARD_STDIO_DISABLED=true)" };
    const match = matchCatalogue(entry, stdioCatalogueOf(policy));
    return match.ok ? null : { field: match.field ?? "command", message: match.reason, catalogueLine: match.catalogueLine };
  }
  const verdict = await checkUrl(entry.url, { allowedOrigins: policy.allowedPrivateOrigins });
  if (verdict.ok) return null;
  const hint = ` (to reach a private server on purpose, list its origin in ${privateOriginsVariable})`;
  return { field: "url", message: `the URL is refused: ${verdict.reason}${hint}` };
}
