import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/shell/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Switchboard", template: "%s · Switchboard" },
  description: "A visual workflow builder for AI agents: agents wired to MCP tools, task sub-flows and signals, every tool call traced.",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader />
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
