import { normalEmail, type PrismaAccounts, type UserRecord } from "../db";
import { hashPassword, passwordProblem } from "./passwords";
import { newSecret, secretHash } from "../security";

/** How long the set-up link printed in the log works. */
export const setupCodeLifetimeMs = 24 * 60 * 60 * 1000;

const emailShape = /^[^\s@]+@[^\s@]+$/;

/** Why an email is refused, or null. */
export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed === "") return "Type an email address.";
  if (trimmed.length > 254 || !emailShape.test(trimmed)) return `“${trimmed.slice(0, 80)}” is not an email address.`;
  return null;
}

/**
 * Whether the set-up screen may be used without the code from the log: only
 * while the app answers under loopback names alone (no
 * SWITCHBOARD_ALLOWED_HOSTS), i.e. only someone on this machine can reach it.
 * Once the app is reachable under another name, the first visitor must not
 * become its owner.
 */
export function setupOpenWithoutCode(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.SWITCHBOARD_ALLOWED_HOSTS ?? "").trim() === "";
}

export type OwnerResult = { ok: true; owner: UserRecord } | { ok: false; error: string; field?: "email" | "password" };

/** Creates the first owner; refused once any owner exists. */
export async function createFirstOwner(accounts: PrismaAccounts, email: string, password: string): Promise<OwnerResult> {
  const badEmail = emailProblem(email);
  if (badEmail) return { ok: false, error: badEmail, field: "email" };
  const badPassword = passwordProblem(password, email);
  if (badPassword) return { ok: false, error: badPassword, field: "password" };
  if ((await accounts.countOwners()) > 0) return { ok: false, error: "This Switchboard already has an owner: sign in instead." };
  const owner = await accounts.createUser({ email: normalEmail(email), role: "owner", passwordHash: await hashPassword(password) });
  if (!owner) return { ok: false, error: "An account with this email exists already: sign in instead.", field: "email" };
  await accounts.clearSetupCodes();
  return { ok: true, owner };
}

/**
 * At start (scripts/prepare-app.ts), while no owner exists: creates it from
 * SWITCHBOARD_OWNER_EMAIL + SWITCHBOARD_OWNER_PASSWORD when both are set,
 * else stores a one-time set-up code for the link the log prints. Answers
 * the line to log.
 */
export async function prepareOwner(accounts: PrismaAccounts, options: { env?: NodeJS.ProcessEnv; baseUrl: string }): Promise<string> {
  const env = options.env ?? process.env;
  const email = env.SWITCHBOARD_OWNER_EMAIL?.trim();
  const password = env.SWITCHBOARD_OWNER_PASSWORD;
  if ((await accounts.countOwners()) > 0) return email ? "accounts: an owner exists; SWITCHBOARD_OWNER_EMAIL is ignored" : "accounts: owner present";
  if (email && password) {
    const created = await createFirstOwner(accounts, email, password);
    if (!created.ok) throw new OwnerSetupError(`SWITCHBOARD_OWNER_${created.field === "email" ? "EMAIL" : "PASSWORD"}: ${created.error}`);
    return `accounts: created the owner ${created.owner.email} from SWITCHBOARD_OWNER_EMAIL`;
  }
  if (email || password) throw new OwnerSetupError("set both SWITCHBOARD_OWNER_EMAIL and SWITCHBOARD_OWNER_PASSWORD, or neither (then set up the owner in the browser)");
  const code = newSecret();
  await accounts.replaceSetupCode(secretHash(code), new Date(Date.now() + setupCodeLifetimeMs));
  const link = `${options.baseUrl.replace(/\/$/, "")}/setup?code=${code}`;
  return setupOpenWithoutCode(env)
    ? `accounts: no owner yet; open ${options.baseUrl.replace(/\/$/, "")}/setup to create one (or this one-time link from another name: ${link})`
    : `accounts: no owner yet; create one with this one-time link (24 h): ${link}`;
}

/** The owner variables are set but unusable: the message names the variable. */
export class OwnerSetupError extends Error {
  override name = "OwnerSetupError";
}
