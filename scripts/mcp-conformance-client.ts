/**
 * The conformance suite's client driver: Switchboard's own MCP client
 * (connectEntry: the v2 SDK client with era negotiation, the URL guard,
 * OAuth through lib/mcp/oauth) against the suite's scenario server. The
 * suite passes the server's URL as the last argument, the scenario in
 * MCP_CONFORMANCE_SCENARIO and, for some, credentials in
 * MCP_CONFORMANCE_CONTEXT. The driver connects, lists the tools, calls
 * each with arguments made from its input schema, and closes. Consent is
 * headless here: the suite's authorization server answers at once with a
 * redirect to the callback, which the driver reads instead of a browser.
 */
import { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } from "@modelcontextprotocol/client";
import { connectEntry, type ConnectEntryOptions, InMemoryOAuthStateStore, listConnectedTools, parseServerEntry, RegistryOAuthProvider } from "../lib/mcp";

const url = process.argv.at(-1) ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, string>;
const verdict = parseServerEntry({ id: "conformance", name: "Conformance scenario", transport: "http", url, timeoutMs: 20_000 });
if (!verdict.ok) {
  console.error(`not a server URL: ${verdict.problem.message}`);
  process.exit(2);
}
const entry = verdict.entry;
const redirectUrl = "http://localhost:3000/callback";

function authOptions(): Pick<ConnectEntryOptions, "oauth" | "authProvider"> {
  if (scenario === "auth/client-credentials-basic") return { authProvider: new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret }) };
  if (scenario === "auth/client-credentials-jwt") {
    return { authProvider: new PrivateKeyJwtProvider({ clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm || "ES256" }) };
  }
  if (scenario === "auth/cross-app-access-complete-flow") {
    // Enterprise-managed authorization (SEP-990): the IdP's ID token becomes an ID-JAG (RFC 8693), then an access token (RFC 7523).
    return {
      authProvider: new CrossAppAccessProvider({
        clientId: context.client_id,
        clientSecret: context.client_secret,
        assertion: async (grant) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: context.idp_token_endpoint,
              audience: grant.authorizationServerUrl,
              resource: grant.resourceUrl,
              idToken: context.idp_id_token,
              clientId: context.idp_client_id,
              ...(grant.scope ? { scope: grant.scope } : {}),
              fetchFn: grant.fetchFn,
            })
          ).jwtAuthGrant,
      }),
    };
  }
  const provider = new RegistryOAuthProvider({
    serverId: entry.id,
    store: new InMemoryOAuthStateStore(),
    redirectUrl,
    clientName: "Switchboard (conformance)",
    // A client ID metadata document (used where the authorization server supports it; dynamic registration otherwise).
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    // The 2025-03-26 server publishes an issuer other than its metadata's URL: its owner would tick "allow issuer mismatch" for it.
    ...(scenario === "auth/2025-03-26-oauth-metadata-backcompat" ? { allowIssuerMismatch: true } : {}),
    ...(context.client_id && scenario === "auth/pre-registration" ? { preRegistered: { clientId: context.client_id, clientSecret: context.client_secret } } : {}),
  });
  return { oauth: { provider, consent: headlessConsent } };
}

/** The suite's authorization server consents at once: its answer is the redirect to our callback. */
async function headlessConsent(authorizationUrl: URL) {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization server did not redirect (HTTP ${response.status})`);
  const callback = new URL(location);
  return { code: callback.searchParams.get("code"), state: callback.searchParams.get("state"), iss: callback.searchParams.get("iss"), error: callback.searchParams.get("error") };
}

/**
 * TEST HARNESS ONLY: the suite's scenario and authorization servers listen on
 * loopback ports the driver learns only while the flow runs, so for this
 * driver the origin list answers yes to any loopback http origin (and to
 * nothing else private). The app never builds such a list.
 */
class AnyLoopbackOrigin extends Array<string> {
  override includes(origin: string): boolean {
    return /^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d+$/.test(origin);
  }
}
const connection = await connectEntry(entry, { policy: { stdioDisabled: false, allowedPrivateOrigins: new AnyLoopbackOrigin() }, ...authOptions() });
try {
  const tools = await listConnectedTools(connection, entry);
  for (const tool of tools) {
    if (tool.problem) continue;
    const result = await connection.client.callTool({ name: tool.name, arguments: sampleArguments(tool.inputSchema) });
    console.log(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`);
  }
} finally {
  await connection.close();
}
// Nothing else is left to do: exit now rather than wait for idle keep-alive sockets to time out.
process.exit(0);

/** Arguments that satisfy a simple JSON Schema: each property gets a value of its type. */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.default !== undefined) values[name] = property.default;
    else if (property.enum?.length) values[name] = property.enum[0];
    else values[name] = { number: 1, integer: 1, boolean: true, array: [], object: {} }[property.type ?? ""] ?? "test";
  }
  return values;
}
