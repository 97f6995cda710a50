import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import { parseRole, type Role } from "./roles";
import { toDatabaseError } from "./database-error";

/** A person as the app sees them: never the password hash. */
export interface UserRecord {
  id: string;
  email: string;
  role: Role;
  passwordChangedAt: Date;
  createdAt: Date;
  createdBy: string | null;
}

/** A stored token as its list shows it: the prefix, never the token or its hash. */
export interface ApiTokenRecord {
  id: string;
  userId: string;
  userEmail: string;
  userRole: Role;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

type UserRow = { id: string; email: string; role: string; passwordChangedAt: Date; createdAt: Date; createdBy: string | null };

function toUser(row: UserRow): UserRecord {
  // An unknown stored role reads as the lowest one: a row edited by hand grants nothing.
  return { id: row.id, email: row.email, role: parseRole(row.role) ?? "viewer", passwordChangedAt: row.passwordChangedAt, createdAt: row.createdAt, createdBy: row.createdBy };
}

/** Emails are compared lower-cased and trimmed. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * People, their sessions, their MCP tokens and the owner set-up code
 * (User, Session, ApiToken, SetupCode). Secrets arrive hashed: this module
 * never sees a password, a session id or a token.
 */
export class PrismaAccounts {
  constructor(private readonly client: PrismaClient) {}

  private async run<T>(action: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toDatabaseError(error, action);
    }
  }

  countOwners(): Promise<number> {
    return this.run("count the owners", () => this.client.user.count({ where: { role: "owner" } }));
  }

  /** The person and their password hash, for signing in. */
  findForSignIn(email: string): Promise<(UserRecord & { passwordHash: string }) | null> {
    return this.run("look up the account", async () => {
      const row = await this.client.user.findUnique({ where: { email: normalEmail(email) } });
      return row ? { ...toUser(row), passwordHash: row.passwordHash } : null;
    });
  }

  findUser(id: string): Promise<UserRecord | null> {
    return this.run("look up the account", async () => {
      const row = await this.client.user.findUnique({ where: { id } });
      return row ? toUser(row) : null;
    });
  }

  listUsers(): Promise<UserRecord[]> {
    return this.run("list the people", async () => (await this.client.user.findMany({ orderBy: { createdAt: "asc" } })).map(toUser));
  }

  /** Null when the email is taken. */
  createUser(input: { email: string; role: Role; passwordHash: string; createdBy?: string }): Promise<UserRecord | null> {
    return this.run("create the account", async () => {
      const email = normalEmail(input.email);
      if (await this.client.user.findUnique({ where: { email } })) return null;
      return toUser(await this.client.user.create({ data: { id: randomUUID(), email, role: input.role, passwordHash: input.passwordHash, createdBy: input.createdBy ?? null } }));
    });
  }

  setRole(id: string, role: Role): Promise<UserRecord | null> {
    return this.run("change the role", async () => {
      const found = await this.client.user.findUnique({ where: { id } });
      return found ? toUser(await this.client.user.update({ where: { id }, data: { role } })) : null;
    });
  }

  /** A new password: every session of the person started before now ends. */
  setPassword(id: string, passwordHash: string, changedAt = new Date()): Promise<boolean> {
    return this.run("change the password", async () => {
      const found = await this.client.user.findUnique({ where: { id } });
      if (!found) return false;
      await this.client.$transaction([
        this.client.user.update({ where: { id }, data: { passwordHash, passwordChangedAt: changedAt } }),
        this.client.session.deleteMany({ where: { userId: id } }),
      ]);
      return true;
    });
  }

  deleteUser(id: string): Promise<boolean> {
    return this.run("remove the account", async () => (await this.client.user.deleteMany({ where: { id } })).count > 0);
  }

  createSession(input: { idHash: string; userId: string; expiresAt: Date }): Promise<void> {
    return this.run("start the session", async () => {
      await this.client.session.create({ data: input });
    });
  }

  /** The session and its person; expiry and password-change checks are the caller's (lib/auth/sessions.ts). */
  findSession(idHash: string): Promise<{ createdAt: Date; expiresAt: Date; user: UserRecord } | null> {
    return this.run("read the session", async () => {
      const row = await this.client.session.findUnique({ where: { idHash }, include: { user: true } });
      return row ? { createdAt: row.createdAt, expiresAt: row.expiresAt, user: toUser(row.user) } : null;
    });
  }

  deleteSession(idHash: string): Promise<void> {
    return this.run("end the session", async () => {
      await this.client.session.deleteMany({ where: { idHash } });
    });
  }

  createApiToken(input: { userId: string; name: string; tokenHash: string; prefix: string }): Promise<ApiTokenRecord> {
    return this.run("create the token", async () => {
      const row = await this.client.apiToken.create({ data: { id: randomUUID(), ...input }, include: { user: true } });
      return toToken(row);
    });
  }

  /** An active (not revoked) token by its hash, with its person. */
  findActiveApiToken(tokenHash: string): Promise<ApiTokenRecord | null> {
    return this.run("check the token", async () => {
      const row = await this.client.apiToken.findUnique({ where: { tokenHash }, include: { user: true } });
      return row && !row.revokedAt ? toToken(row) : null;
    });
  }

  /** Tokens of one person, or of everyone (owner view), newest first. */
  listApiTokens(userId?: string): Promise<ApiTokenRecord[]> {
    return this.run("list the tokens", async () =>
      (await this.client.apiToken.findMany({ where: userId ? { userId } : {}, include: { user: true }, orderBy: { createdAt: "desc" } })).map(toToken),
    );
  }

  findApiToken(id: string): Promise<ApiTokenRecord | null> {
    return this.run("read the token", async () => {
      const row = await this.client.apiToken.findUnique({ where: { id }, include: { user: true } });
      return row ? toToken(row) : null;
    });
  }

  revokeApiToken(id: string, at = new Date()): Promise<void> {
    return this.run("revoke the token", async () => {
      await this.client.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    });
  }

  touchApiToken(id: string, at = new Date()): Promise<void> {
    return this.run("record the token's use", async () => {
      await this.client.apiToken.update({ where: { id }, data: { lastUsedAt: at } });
    });
  }

  countActiveApiTokens(): Promise<number> {
    return this.run("count the tokens", () => this.client.apiToken.count({ where: { revokedAt: null } }));
  }

  /** Replaces any earlier set-up code: only the newest printed link works. */
  replaceSetupCode(codeHash: string, expiresAt: Date): Promise<void> {
    return this.run("store the set-up code", async () => {
      await this.client.$transaction([this.client.setupCode.deleteMany({}), this.client.setupCode.create({ data: { codeHash, expiresAt } })]);
    });
  }

  /** Deletes the code when it matches and has not expired (one use). */
  useSetupCode(codeHash: string, now = new Date()): Promise<boolean> {
    return this.run("check the set-up code", async () => (await this.client.setupCode.deleteMany({ where: { codeHash, expiresAt: { gt: now } } })).count > 0);
  }

  clearSetupCodes(): Promise<void> {
    return this.run("clear the set-up codes", async () => {
      await this.client.setupCode.deleteMany({});
    });
  }
}

function toToken(row: { id: string; userId: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; user: UserRow }): ApiTokenRecord {
  const user = toUser(row.user);
  return { id: row.id, userId: row.userId, userEmail: user.email, userRole: user.role, name: row.name, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, revokedAt: row.revokedAt };
}
