import type { Metadata } from "next";
import { parseRole, requirePageRole } from "@/lib/auth";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Not allowed" };

/** Where a page sends a person whose role is below what it needs. */
export default async function RefusedPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const actor = await requirePageRole("viewer", "/");
  const need = parseRole((await searchParams).need) ?? "owner";
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">This page needs the {need} role</p>
      <p>
        You are signed in as {actor.email}, a {actor.role}. Ask an owner to change your role if you need it.
      </p>
    </div>
  );
}
