import type { CredentialRequirement } from "../manifest";
import type { Credentials } from "../calls/render-request";

/**
 * Credential values from the server's environment, for the CLI and for
 * deployments without a credential store: `SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD>`
 * in upper case, e.g. SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY for
 * `credentials.openai.apiKey`. Never sent to the browser.
 */
export function credentialsFromEnvironment(requirements: readonly CredentialRequirement[], environment: NodeJS.ProcessEnv = process.env): Credentials {
  const values: Credentials = {};
  for (const requirement of requirements) {
    for (const field of requirement.fields) {
      const value = environment[`SWITCHBOARD_CREDENTIAL_${requirement.name}_${field}`.toUpperCase()];
      if (value) (values[requirement.name] ??= {})[field] = value;
    }
  }
  return values;
}
