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
  | { ok: false; id: string; name: string | null; error: string; field: string };

/** The server form's fields as text (see lib/mcp/registry/server-form.ts, which reads them back). */
export interface ServerFormInitial {
  id: string;
  name: string;
  description: string;
  transport: "stdio" | "http" | "sse";
  command: string;
  args: string;
  env: string;
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
