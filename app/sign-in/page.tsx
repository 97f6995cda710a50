import type { Metadata } from "next";
import { accounts, currentActor, oidcConfig, oidcErrorCookie, OidcSettingsError, publicAction, safeNext } from "@/lib/auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/accounts/sign-in-form";
import { signInAction } from "../actions/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  publicAction("the sign-in screen");
  if ((await accounts().countOwners()) === 0) redirect("/setup");
  const { next } = await searchParams;
  if (await currentActor()) redirect(safeNext(next));
  const sso = singleSignOn();
  const ssoError = (await cookies()).get(oidcErrorCookie)?.value;
  return (
    <>
      <div className="page-heading">
        <h1>Sign in</h1>
        <p className="lead">Your owner gave you an email and a first password.</p>
      </div>
      {ssoError ? (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">Single sign-on did not sign you in</p>
          <p>{ssoError}</p>
        </div>
      ) : null}
      <SignInForm action={signInAction} next={next} />
      {sso ? (
        <p className="card">
          <a className="button" href={`/sign-in/oidc${safeNext(next) !== "/" ? `?next=${encodeURIComponent(safeNext(next))}` : ""}`}>
            Sign in with {sso.name}
          </a>
        </p>
      ) : null}
    </>
  );
}

/** The provider's name when single sign-on is configured; a half-done configuration shows no button (the start-up log says what is missing). */
function singleSignOn(): { name: string } | null {
  try {
    return oidcConfig();
  } catch (error) {
    if (error instanceof OidcSettingsError) return null;
    throw error;
  }
}
