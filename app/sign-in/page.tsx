import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/accounts/sign-in-form";
import { currentActor, publicAction } from "@/lib/auth/require-role";
import { accounts } from "@/lib/auth/sessions";
import { signInAction } from "../actions/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  publicAction("the sign-in screen");
  if ((await accounts().countOwners()) === 0) redirect("/setup");
  const { next } = await searchParams;
  if (await currentActor()) redirect(next?.startsWith("/") && !next.startsWith("//") ? next : "/");
  return (
    <>
      <div className="page-heading">
        <h1>Sign in</h1>
        <p className="lead">Your owner gave you an email and a first password.</p>
      </div>
      <SignInForm action={signInAction} next={next} />
    </>
  );
}
