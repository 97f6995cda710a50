import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";

/**
 * Rate limits on wrong sign-ins and wrong bearer tokens, counted by
 * rate-limiter-flexible in the database (its Prisma store over the
 * `RateLimit` table, the same for SQLite and Postgres), so every web process
 * counts against the same numbers. The library reads the system clock; its
 * windows are fixed, from the first counted event.
 */

export interface LimiterSpec {
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/** Makes a limiter: in the database (the app), or in memory (a test double, one process). */
export type LimiterStore = (spec: LimiterSpec) => RateLimiterAbstract;

export const memoryLimiters: LimiterStore = (spec) => new RateLimiterMemory(spec);

/** Limiters over the database's `RateLimit` table (any Prisma client of ours: SQLite or Postgres). */
export function databaseLimiters(client: object): LimiterStore {
  return (spec) => new RateLimiterPrisma({ ...spec, storeClient: client, tableName: "rateLimit" });
}

/** Counts one event. Over the limit the library rejects with its result: here that is an answer, not an error. */
async function count(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (result) {
    if (result instanceof RateLimiterRes) return result;
    throw result;
  }
}

const seconds = (result: RateLimiterRes) => Math.max(1, Math.ceil(result.msBeforeNext / 1000));

/** Wrong sign-ins: a progressive delay per email and address, and a limit per address across emails (sprays). */
export const signInRules = { freeFailures: 5, maxDelaySeconds: 60, failureWindowSeconds: 3600, sourceFailures: 30, sourceWindowSeconds: 15 * 60 } as const;

/** The delay after the n-th wrong password for one email from one address: none for the first few, then doubling up to a minute. */
export function signInDelaySeconds(failures: number): number {
  return failures <= signInRules.freeFailures ? 0 : Math.min(2 ** (failures - signInRules.freeFailures), signInRules.maxDelaySeconds);
}

export type SignInWait = { seconds: number; because: "delay" | "source" } | null;

/**
 * Failed sign-ins, slowed rather than locked: each email is delayed per
 * address (an attacker's failures delay the attacker's address, never the
 * owner's from another), by at most a minute; and one address is refused
 * after 30 failures in 15 minutes whatever the emails (a password sprayed
 * across accounts).
 */
export class SignInLimits {
  readonly #failures: RateLimiterAbstract;
  readonly #delays: RateLimiterAbstract;
  readonly #sources: RateLimiterAbstract;

  constructor(store: LimiterStore) {
    this.#failures = store({ keyPrefix: "signin-failures", points: Number.MAX_SAFE_INTEGER, duration: signInRules.failureWindowSeconds });
    this.#delays = store({ keyPrefix: "signin-delay", points: 1, duration: signInRules.maxDelaySeconds });
    this.#sources = store({ keyPrefix: "signin-source", points: signInRules.sourceFailures, duration: signInRules.sourceWindowSeconds });
  }

  /** Whether this attempt must wait (and how long, and why) before its password is checked. */
  async wait(email: string, address: string): Promise<SignInWait> {
    const [source, delay] = await Promise.all([this.#sources.get(address), this.#delays.get(pair(email, address))]);
    if (source && source.consumedPoints >= signInRules.sourceFailures && source.msBeforeNext > 0) return { seconds: seconds(source), because: "source" };
    if (delay && delay.consumedPoints > 1 && delay.msBeforeNext > 0) return { seconds: seconds(delay), because: "delay" };
    return null;
  }

  /** A wrong email or password: counted for the pair and the address; past the free ones, the pair waits. Answers the failures so far. */
  async failed(email: string, address: string): Promise<number> {
    const [failures] = await Promise.all([count(this.#failures, pair(email, address)), count(this.#sources, address)]);
    const delay = signInDelaySeconds(failures.consumedPoints);
    if (delay > 0) await this.#delays.block(pair(email, address), delay);
    return failures.consumedPoints;
  }

  /** A right password: the pair starts afresh (the address's count stays: a spray with one right guess is still a spray). */
  async succeeded(email: string, address: string): Promise<void> {
    await Promise.all([this.#failures.delete(pair(email, address)), this.#delays.delete(pair(email, address))]);
  }
}

/** Wrong bearer tokens: per address and from all addresses together; a valid token is never counted nor refused. */
export const bearerRules = { perAddress: 20, overall: 200, windowSeconds: 60 } as const;

export class BearerTokenLimits {
  readonly #perAddress: RateLimiterAbstract;
  readonly #overall: RateLimiterAbstract;

  constructor(store: LimiterStore) {
    this.#perAddress = store({ keyPrefix: "bearer-address", points: bearerRules.perAddress, duration: bearerRules.windowSeconds });
    this.#overall = store({ keyPrefix: "bearer-all", points: bearerRules.overall, duration: bearerRules.windowSeconds });
  }

  /** Seconds a caller without a valid token from this address must wait; 0 when it may try. */
  async wait(address: string): Promise<number> {
    const [own, all] = await Promise.all([this.#perAddress.get(address), this.#overall.get("*")]);
    const over = [own && own.consumedPoints >= bearerRules.perAddress ? own : null, all && all.consumedPoints >= bearerRules.overall ? all : null].filter((result): result is RateLimiterRes => result !== null);
    return over.length ? Math.max(...over.map(seconds)) : 0;
  }

  /** Counts a wrong token; says which limit this one reached (to log it once). */
  async failed(address: string): Promise<{ addressReached: boolean; overallReached: boolean }> {
    const [own, all] = await Promise.all([count(this.#perAddress, address), count(this.#overall, "*")]);
    return { addressReached: own.consumedPoints === bearerRules.perAddress, overallReached: all.consumedPoints === bearerRules.overall };
  }
}

function pair(email: string, address: string): string {
  return `${email}|${address}`;
}

/** One message to a chat widget: whose, from where, and the widget's limits. */
export interface WidgetMessage {
  widgetId: string;
  visitorId: string;
  address: string;
  /** Messages a visitor may send a minute (ten times that from one address). */
  perMinute: number;
  /** Messages all the widget's visitors together may send a minute. */
  overallPerMinute: number;
}

/** Which limit a refused message was over, and the seconds to wait. */
export type WidgetLimitReached = { limit: "visitor" | "widget"; seconds: number } | null;

/**
 * Chat widget visitors: each widget allows its visitors `perMinute` messages
 * a minute, counted per visitor id (kept by the widget) and, ten times that,
 * per address (a visitor who throws away their id is still one address);
 * and all its visitors together `overallPerMinute`. Only a message within
 * the visitor's limits counts toward the widget's, so one visitor past their
 * own limit cannot use up everyone's.
 */
export class WidgetVisitorLimits {
  readonly #store: LimiterStore;
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(store: LimiterStore) {
    this.#store = store;
  }

  #limiter(kind: "visitor" | "address" | "widget", points: number): RateLimiterAbstract {
    const key = `${kind}:${points}`;
    let limiter = this.#limiters.get(key);
    if (!limiter) {
      limiter = this.#store({ keyPrefix: `widget-${kind}-${points}`, points, duration: 60 });
      this.#limiters.set(key, limiter);
    }
    return limiter;
  }

  /** Counts one message; answers the limit it is over and the seconds to wait (then the message is refused), else null. */
  async take(message: WidgetMessage): Promise<WidgetLimitReached> {
    const { widgetId, visitorId, address, perMinute, overallPerMinute } = message;
    const [visitor, fromAddress] = await Promise.all([count(this.#limiter("visitor", perMinute), `${widgetId}|${visitorId}`), count(this.#limiter("address", perMinute * 10), `${widgetId}|${address}`)]);
    const over = [visitor.consumedPoints > perMinute ? visitor : null, fromAddress.consumedPoints > perMinute * 10 ? fromAddress : null].filter((result): result is RateLimiterRes => result !== null);
    if (over.length) return { limit: "visitor", seconds: Math.max(...over.map(seconds)) };
    const widget = await count(this.#limiter("widget", overallPerMinute), widgetId);
    return widget.consumedPoints > overallPerMinute ? { limit: "widget", seconds: seconds(widget) } : null;
  }
}
