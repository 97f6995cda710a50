"use client";

import { createContext, useContext, useId, useState, type ReactNode } from "react";

/** The words typed in the search box, lower-cased; empty shows everything. */
const QueryContext = createContext<string[]>([]);

function matches(text: string, words: string[]): boolean {
  return words.every((word) => text.includes(word));
}

function toWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The catalogue's search box and the live count of matching nodes. The cards
 * stay server-rendered; each sits in a FilterableItem that hides itself when
 * its text does not match.
 */
export function CatalogueFilter({ texts, children }: { texts: string[]; children: ReactNode }) {
  const [query, setQuery] = useState("");
  const inputId = useId();
  const words = toWords(query);
  const shown = texts.filter((text) => matches(text, words)).length;
  const total = texts.length;
  return (
    <QueryContext value={words}>
      <div className="catalogue-search" role="search">
        <label htmlFor={inputId}>Search nodes</label>
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Name, title, category or description"
          autoComplete="off"
          spellCheck={false}
        />
        <p className="muted small" role="status">
          {words.length === 0 ? `${total} node${total === 1 ? "" : "s"}` : `${shown} of ${total} nodes match`}
        </p>
      </div>
      {words.length > 0 && shown === 0 ? (
        <p className="empty-state">
          No node matches “{query.trim()}”. Try a category such as <em>Agents</em> or <em>Services</em>.
        </p>
      ) : null}
      {children}
    </QueryContext>
  );
}

/** A list item shown only while its text matches the search. */
export function FilterableItem({ text, className, children }: { text: string; className?: string; children: ReactNode }) {
  const words = useContext(QueryContext);
  return (
    <li className={className} hidden={!matches(text, words)}>
      {children}
    </li>
  );
}
