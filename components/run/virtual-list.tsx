"use client";

import { useCallback, useEffect, useMemo, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
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

/** Rows rendered on the server and before the viewport is measured. */
const initialViewport = 720;

/**
 * A windowed list: only the rows in (and near) the visible part of its
 * scroll area are in the DOM, so 10,000 rows scroll like 30. Rows may have
 * different heights; each rendered row is measured (ResizeObserver) and
 * unmeasured rows count at their estimate. The row holding keyboard focus
 * stays rendered even when scrolled away, so focus is never lost.
 *
 * Why not a library: the page needs ~150 lines of it, and a dependency here
 * would be one more thing to pin and audit for a job this small.
 */
export function VirtualList<T>({ items, itemKey, estimateHeight, renderItem, itemProps, label, className, overscan = 480, scrollTo, onRangeChange }: VirtualListProps<T>) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(initialViewport);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);

  const offsets = useMemo(() => {
    const result = new Float64Array(items.length + 1);
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      result[index + 1] = result[index] + (heights.current.get(itemKey(item)) ?? estimateHeight(item));
    }
    return result;
    // `measured` counts the changes of measured heights: a new count means new offsets.
  }, [items, itemKey, estimateHeight, measured]);

  const rowObserver = useRowObserver(heights, setMeasured);
  const pendingFocus = useRef<string | null>(null);

  // A row asked for by key: scroll it a third of the way down the viewport, then focus it once rendered.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!scrollTo || !viewport) return;
    const index = items.findIndex((item) => itemKey(item) === scrollTo.key);
    if (index < 0) return;
    const top = Math.max(0, offsets[index] - viewport.clientHeight / 3);
    viewport.scrollTop = top;
    setScrollTop(top);
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

  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const observer = new ResizeObserver(() => setViewportHeight(viewport.clientHeight));
    observer.observe(viewport);
    setViewportHeight(viewport.clientHeight);
    return () => observer.disconnect();
  }, []);

  const first = Math.max(0, lastOffsetAtOrBefore(offsets, scrollTop - overscan));
  let last = first;
  while (last < items.length && offsets[last] < scrollTop + viewportHeight + overscan) last++;
  const indexes: number[] = [];
  for (let index = first; index < last; index++) indexes.push(index);
  const focusedIndex = focusedKey === null ? -1 : items.findIndex((item) => itemKey(item) === focusedKey);
  if (focusedIndex >= 0 && (focusedIndex < first || focusedIndex >= last)) indexes.push(focusedIndex);

  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, items, onRangeChange]);

  const total = offsets[items.length];
  return (
    <div
      ref={viewportRef}
      className={`${styles.viewport} ${className ?? ""}`}
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      onFocus={(event) => setFocusedKey(event.target.closest<HTMLElement>("[data-row-key]")?.dataset.rowKey ?? null)}
    >
      <div role="list" aria-label={label} className={styles.virtualCanvas} style={{ height: total }}>
        {indexes.map((index) => {
          const item = items[index];
          const key = itemKey(item);
          return (
            <div
              key={key}
              ref={rowObserver}
              data-row-key={key}
              data-assumed-height={offsets[index + 1] - offsets[index]}
              className={styles.virtualRow}
              style={{ transform: `translateY(${offsets[index]}px)` }}
              role="listitem"
              {...itemProps?.(item, index)}
            >
              {renderItem(item, index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The largest index whose offset is ≤ y (binary search over the prefix sums). */
function lastOffsetAtOrBefore(offsets: Float64Array, y: number): number {
  let low = 0;
  let high = offsets.length - 2;
  if (high < 0) return 0;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle] <= y) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * One ResizeObserver for all rows; the ref callback it returns observes a
 * row while it is mounted (React 19 runs the returned cleanup on unmount).
 * Height changes are batched into one re-render per frame.
 */
function useRowObserver(heights: { current: Map<string, number> }, setMeasured: (update: (count: number) => number) => void) {
  const observer = useRef<ResizeObserver | null>(null);
  const frame = useRef(0);

  useEffect(
    () => () => {
      observer.current?.disconnect();
      cancelAnimationFrame(frame.current);
    },
    [],
  );

  return useCallback(
    (element: HTMLDivElement | null) => {
      if (!element) return;
      observer.current ??= new ResizeObserver((entries) => {
        let any = false;
        for (const entry of entries) {
          const { rowKey, assumedHeight } = (entry.target as HTMLElement).dataset;
          const height = Math.round(entry.borderBoxSize?.[0]?.blockSize ?? entry.target.getBoundingClientRect().height);
          if (!rowKey || height === 0) continue;
          heights.current.set(rowKey, height);
          // Only a height other than the one the offsets assumed moves rows (fixed-height rows never do).
          if (Number(assumedHeight) !== height) any = true;
        }
        if (any && frame.current === 0) {
          frame.current = requestAnimationFrame(() => {
            frame.current = 0;
            setMeasured((count) => count + 1);
          });
        }
      });
      const current = observer.current;
      current.observe(element);
      return () => current.unobserve(element);
    },
    [heights, setMeasured],
  );
}
