import { prisma } from "../db/client";
import { BearerTokenLimits, databaseLimiters, SignInLimits } from "./rate-limits";

let bearer: BearerTokenLimits | undefined;
let signIn: SignInLimits | undefined;

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
