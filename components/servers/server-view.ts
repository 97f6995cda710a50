import type { SecretStateName } from "./action-types";

/**
 * A registered server as the pages show it: what it runs or where it is,
 * its limits, and which secrets are set (never their values). A server the
 * registry refused is shown with its error instead.
 */
export type ServerView =
  | {
      ok: true;
      id: string;
      name: string;
      description: string | null;
      transport: "stdio" | "http" | "sse";
      /** `node server.js stdio`, or the URL. */
      target: string;
      enabled: boolean;
      timeoutMs: number;
      toolTimeoutMs: number | null;
      maxRetries: number;
      maxConcurrentCalls: number | null;
      /** Empty: every tool the server lists. */
      allowedTools: string[];
      /** The server's OAuth grant and connection, when it uses OAuth. */
      oauth: { grant: "authorization_code" | "client_credentials"; status: "connected" | "reconnect" | "not-connected"; reason?: string; connectedBy?: string } | null;
      secrets: Array<{ name: string; state: SecretStateName }>;
    }
  | {
      ok: false;
      id: string;
      name: string | null;
      error: string;
      field: string;
      /** For a stdio command line the stdio catalogue does not allow: the catalogue entry (JSON) an administrator could add to allow it. */
      catalogueLine: string | null;
    };

/** A stdio catalogue entry the form offers (see lib/mcp/stdio-catalogue/catalogue-choices.ts). */
export interface CatalogueChoiceView {
  id: string;
  title: string;
  description: string | null;
  commandLine: string;
  confined: string | null;
  available: boolean;
  parameters: Array<{ name: string; title: string; description: string | null; hint: string; defaultValue: string }>;
  env: Array<{ name: string; description: string | null }>;
  place: string;
}

/** The stdio catalogue as the form shows it: its file, its entries, or why it is refused. */
export interface CatalogueView {
  file: string;
  choices: CatalogueChoiceView[];
  problem: string | null;
}

/** The server form's fields as text (see lib/mcp/registry/server-form.ts, which reads them back). */
export interface ServerFormInitial {
  id: string;
  name: string;
  description: string;
  transport: "stdio" | "http" | "sse";
  /** The stdio catalogue entry's id. */
  catalogue: string;
  parameters: Record<string, string>;
  env: Record<string, string>;
  url: string;
  headers: string;
  timeoutMs: string;
  toolTimeoutMs: string;
  maxRetries: string;
  maxConcurrentCalls: string;
  allowedTools: string;
  oauthGrant: string;
  oauthClientId: string;
  oauthClientSecret: string;
  oauthScope: string;
  oauthAllowIssuerMismatch: boolean;
  enabled: boolean;
  secretNames: string[];
}
