"use client";

import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import styles from "./run.module.css";

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  /** The height (px) to assume until a row has been measured; exact for fixed-height rows. */
  estimateHeight: (item: T) => number;
  renderItem: (item: T, index: number) => ReactNode;
  /** Extra attributes of a row's list item (aria-level, aria-posinset…). */
  itemProps?: (item: T, index: number) => HTMLAttributes<HTMLDivElement>;
  /** The list's accessible name. */
  label: string;
  className?: string;
  /** How far (px) beyond the visible area to render, so fast scrolling shows no blank rows. */
  overscan?: number;
  /** A row to bring into view and focus (its first control); a new `token` asks again for the same row. */
  scrollTo?: { key: string; token: number } | null;
  /** Told the rows in the DOM (from `first` up to, not including, `last`) whenever they change: where a paged list loads. */
  onRangeChange?: (first: number, last: number) => void;
}

/** The viewport assumed on the server and before it is measured, so the first rows are in the page's HTML. */
const initialRect = { width: 1024, height: 720 };

/**
 * A windowed list on TanStack Virtual: only the rows in (and near) the
 * visible part of its scroll area are in the DOM, so 10,000 rows scroll like
 * 30. Rows may have different heights; each rendered row is measured and
 * unmeasured rows count at their estimate. The row holding keyboard focus
 * stays rendered even when scrolled away, so focus is never lost.
 */
export function VirtualList<T>({ items, itemKey, estimateHeight, renderItem, itemProps, label, className, overscan = 480, scrollTo, onRangeChange }: VirtualListProps<T>) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const focusedIndex = focusedKey === null ? -1 : items.findIndex((item) => itemKey(item) === focusedKey);

  // The library's overscan counts rows; ours is a distance, turned into rows at the first row's estimate.
  const overscanRows = Math.max(1, Math.ceil(overscan / Math.max(1, items.length > 0 ? estimateHeight(items[0]) : 40)));
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex >= 0 && !indexes.includes(focusedIndex)) indexes.push(focusedIndex);
      return indexes;
    },
    [focusedIndex],
  );
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => viewportRef.current,
    estimateSize: (index) => estimateHeight(items[index]),
    getItemKey: (index) => itemKey(items[index]),
    overscan: overscanRows,
    rangeExtractor,
    initialRect,
  });

  const pendingFocus = useRef<string | null>(null);
  // A row asked for by key: scroll it a third of the way down the viewport, then focus it once rendered.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!scrollTo || !viewport) return;
    const index = items.findIndex((item) => itemKey(item) === scrollTo.key);
    if (index < 0) return;
    const start = virtualizer.getOffsetForIndex(index, "start")?.[0] ?? 0;
    virtualizer.scrollToOffset(Math.max(0, start - viewport.clientHeight / 3));
    pendingFocus.current = scrollTo.key;
    // Only a new request moves the list; later changes to the rows must not scroll it back.
  }, [scrollTo?.token]);

  useEffect(() => {
    const key = pendingFocus.current;
    if (!key) return;
    const row = viewportRef.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"]`);
    const control = row?.querySelector<HTMLElement>("button, a[href], [tabindex]");
    if (!control) return;
    pendingFocus.current = null;
    control.focus();
  });

  const rows = virtualizer.getVirtualItems();
  // The window with its overscan, [first, last), leaving out a focused row kept in the DOM beyond it.
  const range = virtualizer.range;
  const first = range ? Math.max(0, range.startIndex - overscanRows) : 0;
  const last = range ? Math.min(items.length, range.endIndex + overscanRows + 1) : Math.min(items.length, rows.length);
  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, items, onRangeChange]);

  return (
    <div
      ref={viewportRef}
      className={`${styles.viewport} ${className ?? ""}`}
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
      onFocus={(event) => setFocusedKey(event.target.closest<HTMLElement>("[data-row-key]")?.dataset.rowKey ?? null)}
    >
      <div role="list" aria-label={label} className={styles.virtualCanvas} style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => {
          const item = items[row.index];
          const key = String(row.key);
          return (
            <div
              key={key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              data-row-key={key}
              className={styles.virtualRow}
              style={{ transform: `translateY(${row.start}px)` }}
              role="listitem"
              {...itemProps?.(item, row.index)}
            >
              {renderItem(item, row.index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
