import path from "node:path";
import type { Metadata } from "next";
import { CatalogueView } from "@/components/catalogue/catalogue-view";
import { lintNodes } from "@/lib/manifest";
import { requirePageRole } from "@/lib/auth";

// Reads nodes/ on every request, so an edited manifest shows on reload.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Nodes" };

export default async function NodesPage() {
  const actor = await requirePageRole("viewer", "/nodes");
  const catalogue = await lintNodes(path.join(process.cwd(), "nodes"));
  return (
    <>
      <div className="page-heading">
        <h1>Node catalogue</h1>
        <p className="lead">
          Every node type in <code>nodes/</code>, checked by the same lint as <code>npm run lint:nodes</code>. Edit a
          manifest and reload to see the result. The canvas&rsquo;s palette lists these together with the four built-in
          nodes (Start, End, Task Start, Task End) and the registered <a href="/servers">MCP servers</a>.
        </p>
      </div>
      <CatalogueView catalogue={catalogue} />
    </>
  );
}
