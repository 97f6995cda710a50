import Link from "next/link";
import { MainNav } from "./main-nav";
import { SiteMenu } from "./site-menu";

/** The signed-in person as the header shows them. */
export interface HeaderPerson {
  email: string;
  role: "owner" | "editor" | "runner" | "viewer";
}

const everyone = [
  { href: "/", label: "Workflows" },
  { href: "/runs", label: "Runs" },
  { href: "/approvals", label: "Approvals" },
  { href: "/questions", label: "Questions" },
  { href: "/nodes", label: "Nodes" },
  { href: "/servers", label: "Servers" },
];
const ownerOnly = [
  { href: "/credentials", label: "Credentials" },
  { href: "/accounts", label: "People" },
];

/** The banner on every page: the product's name, the navigation the person's role can use, and who is signed in (behind a menu button on a phone). */
export function SiteHeader({ person, signOut }: { person: HeaderPerson | null; signOut: () => Promise<void> }) {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Link href="/" className="brand">
          <BrandMark />
          <span>Switchboard</span>
        </Link>
        {person ? (
          <SiteMenu>
            <MainNav links={[...everyone, ...(person.role === "owner" ? ownerOnly : []), { href: "/tokens", label: "Tokens" }, { href: "/api-access", label: "API" }]} />
            <form action={signOut} className="site-person">
              <Link href="/account" className="small" title={`Signed in as ${person.email} (${person.role})`}>
                {person.email} · {person.role}
              </Link>
              <button type="submit" className="button-quiet">
                Sign out
              </button>
            </form>
          </SiteMenu>
        ) : null}
      </div>
    </header>
  );
}

/** Three sockets and two patch cords: decorative, the name says the rest. */
function BrandMark() {
  return (
    <svg className="brand-mark" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d="M6 7c4 0 8 10 12 10" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <path d="M6 17c4 0 8-5 12-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" opacity="0.55" />
      <circle cx="6" cy="7" r="2.5" fill="currentColor" />
      <circle cx="6" cy="17" r="2.5" fill="currentColor" />
      <circle cx="18" cy="17" r="2.5" fill="currentColor" />
      <circle cx="18" cy="12" r="2.5" fill="currentColor" opacity="0.55" />
    </svg>
  );
}
