import { type Catalogue, type CredentialRequirement, firstPartyCredentialUsers } from "../manifest";
import type { Credentials } from "../calls";
import { credentialGrantKey, type WorkflowGrants } from "./workflow-grants";

/** Whether a node type may take the environment's value of a credential (by the credential's name). */
export type EnvironmentCredentialGate = (credential: string) => boolean;

/**
 * Credential values from the server's environment, for the CLI and for
 * deployments without a credential store: `SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD>`
 * in upper case, e.g. SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY for
 * `credentials.openai.apiKey`, only for the credentials the gate lets this
 * node type take (see environmentCredentialGate). Never sent to the browser.
 */
export function credentialsFromEnvironment(requirements: readonly CredentialRequirement[], environment: NodeJS.ProcessEnv, mayUse: EnvironmentCredentialGate): Credentials {
  const values: Credentials = {};
  for (const requirement of requirements) {
    if (!mayUse(requirement.name)) continue;
    for (const field of requirement.fields) {
      const value = environment[environmentCredentialVariable(requirement.name, field)];
      if (value) (values[requirement.name] ??= {})[field] = value;
    }
  }
  return values;
}

/** SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD>, upper case. */
export function environmentCredentialVariable(name: string, field: string): string {
  return `SWITCHBOARD_CREDENTIAL_${name}_${field}`.toUpperCase();
}

/**
 * The environment's credentials are bound to the node types that may use
 * them: a credential name goes to the first-party node types that declare
 * it, and to another node type (an imported one) only once an owner allowed
 * it for the workflow (a grant of kind `environment`, `<node type>/<name>`).
 * A name alone is not enough: any node type can declare `openai`.
 *
 * @example
 * environmentCredentialGate(catalogue, "openai-agent")("openai") // true
 * environmentCredentialGate(catalogue, "imported-agent")("openai") // false, until an owner allows it
 */
export function environmentCredentialGate(catalogue: Catalogue, nodeType: string, grants?: Pick<WorkflowGrants, "environmentCredentials">): EnvironmentCredentialGate {
  const users = firstPartyCredentialUsers(catalogue);
  return (credential) => users.get(credential)?.has(nodeType) === true || grants?.environmentCredentials?.has(credentialGrantKey(nodeType, credential)) === true;
}
