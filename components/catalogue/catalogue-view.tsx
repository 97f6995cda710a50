import { EmptyState } from "@/components/ui/empty-state";
import { CatalogueFilter, FilterableItem } from "./catalogue-filter";
import { CatalogueSummary } from "./catalogue-summary";
import { NodeCard, nodeAnchor } from "./node-card";
import { ProblemList } from "./problem-list";
import { groupByCategory, type Catalogue, type CatalogueNode } from "@/lib/manifest/browser";

/** What the search box looks in: name, title, category and description. */
function searchText(node: CatalogueNode): string {
  const face = node.manifest?.interface;
  return [node.name, face?.title, face?.category, face?.description].filter(Boolean).join(" ").toLowerCase();
}

/** The node catalogue: summary, search, an index and one card per node type. */
export function CatalogueView({ catalogue }: { catalogue: Catalogue }) {
  const texts = catalogue.nodes.map(searchText);
  const groups = groupByCategory(catalogue.nodes);
  const sharedProblems = catalogue.problems.filter((problem) => !problem.node);
  return (
    <>
      <CatalogueSummary catalogue={catalogue} />
      {catalogue.nodes.length === 0 ? (
        <EmptyState title="No node types yet">
          <p>
            Add a folder to <code>nodes/</code> with an <code>interface.yaml</code>, then reload this page.
          </p>
        </EmptyState>
      ) : (
        <CatalogueFilter texts={texts}>
          <div className="catalogue-layout">
            <nav className="catalogue-index" aria-label="Node index">
              {groups.map((group) => (
                <section key={group.category} aria-label={`${group.category} index`}>
                  <h2 className="small muted">{group.category}</h2>
                  <ul>
                    {group.indexes.map((index) => (
                      <FilterableItem key={catalogue.nodes[index].name} text={texts[index]}>
                        <a href={`#${nodeAnchor(catalogue.nodes[index].name)}`}>{catalogue.nodes[index].manifest?.interface.title ?? catalogue.nodes[index].name}</a>
                      </FilterableItem>
                    ))}
                  </ul>
                </section>
              ))}
            </nav>
            <ul className="node-groups" aria-label="Node types">
              {groups.map((group) => (
                <li key={group.category} className="node-group" aria-labelledby={`category-${group.category.replace(/\W+/g, "-")}`}>
                  <h2 id={`category-${group.category.replace(/\W+/g, "-")}`}>{group.category}</h2>
                  <ul className="node-list" aria-label={`${group.category} nodes`}>
                    {group.indexes.map((index) => (
                      <FilterableItem key={catalogue.nodes[index].name} text={texts[index]}>
                        <NodeCard node={catalogue.nodes[index]} />
                      </FilterableItem>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </div>
        </CatalogueFilter>
      )}
      <SharedSection protocols={catalogue.protocols} problems={sharedProblems} />
    </>
  );
}

function SharedSection({ protocols, problems }: { protocols: string[]; problems: Catalogue["problems"] }) {
  if (protocols.length === 0 && problems.length === 0) return null;
  return (
    <section className="card shared-section" aria-labelledby="shared-protocols">
      <h2 id="shared-protocols">Shared protocols</h2>
      <p className="small muted">
        Tool-exchange protocols in <code>nodes/shared/</code>, imported by agents with <code>$ref</code>.
      </p>
      {protocols.length > 0 ? (
        <ul className="chips" aria-label="Protocols">
          {protocols.map((protocol) => (
            <li key={protocol} className="chip">
              <code>{protocol}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {problems.length > 0 ? (
        <>
          <h3>Problems outside node folders</h3>
          <ProblemList problems={problems} label="Problems outside node folders" />
        </>
      ) : null}
    </section>
  );
}
