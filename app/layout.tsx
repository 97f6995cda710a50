import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/shell/site-header";
import { currentActor } from "@/lib/auth";
import { signOutAction } from "./actions/accounts";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Switchboard", template: "%s · Switchboard" },
  description: "A visual workflow builder for AI agents: agents wired to MCP tools, task sub-flows and signals, every tool call traced.",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

/** The header shows who is signed in; a database that cannot be read shows no one (the page says why). */
async function signedIn() {
  try {
    return await currentActor();
  } catch {
    return null;
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await signedIn();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader person={actor ? { email: actor.email, role: actor.role } : null} signOut={signOutAction} />
        <main id="main" className="container page" tabIndex={-1}>
          {children}
        </main>
        <footer className="site-footer">
          <div className="container">Switchboard · node types live in <code>nodes/</code>, workflows in the database.</div>
        </footer>
      </body>
    </html>
  );
}
