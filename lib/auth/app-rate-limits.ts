import { prisma } from "../db/app";
import { BearerTokenLimits, databaseLimiters, SignInLimits, WidgetVisitorLimits } from "./rate-limits";

let bearer: BearerTokenLimits | undefined;
let signIn: SignInLimits | undefined;
let widgetVisitors: WidgetVisitorLimits | undefined;

/** The app's wrong-token limits, counted in its database (shared by every web process). */
export function appBearerLimits(): BearerTokenLimits {
  bearer ??= new BearerTokenLimits(databaseLimiters(prisma()));
  return bearer;
}

/** The app's wrong-sign-in limits, counted in its database (shared by every web process). */
export function appSignInLimits(): SignInLimits {
  signIn ??= new SignInLimits(databaseLimiters(prisma()));
  return signIn;
}

/** The chat widgets' per-visitor limits, counted in its database (shared by every web process). */
export function appWidgetVisitorLimits(): WidgetVisitorLimits {
  widgetVisitors ??= new WidgetVisitorLimits(databaseLimiters(prisma()));
  return widgetVisitors;
}
