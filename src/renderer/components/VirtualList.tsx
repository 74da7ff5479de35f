import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState, type ReactNode } from 'react';
import classes from './VirtualList.module.css';

export interface VirtualListHandle {
  /** Scrolls just enough to show the row. */
  reveal(index: number): void;
  focus(): void;
  element(): HTMLDivElement | null;
}

interface VirtualListProps {
  count: number;
  rowHeight: number;
  /** Rows drawn above and below the visible ones. */
  overscan?: number;
  renderRow(index: number): ReactNode;
  /** The visible range changed (load those rows). */
  onRange?(start: number, end: number): void;
  onKeyDown?(event: React.KeyboardEvent<HTMLDivElement>): void;
  label: string;
  activeDescendant?: string | undefined;
  /** The list's test id (e2e tests and benchmarks find it by). */
  testId: string;
}

/**
 * A windowed list with fixed row heights: only the rows in view (plus a few) exist in the DOM, so 100,000 rows scroll
 * like 30. The scroll position is read once per animation frame.
 */
export const VirtualList = forwardRef<VirtualListHandle, VirtualListProps>(function VirtualList(
  { count, rowHeight, overscan = 8, renderRow, onRange, onKeyDown, label, activeDescendant, testId },
  ref,
) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const frame = useRef(0);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (scroller.current) setScrollTop(scroller.current.scrollTop);
    });
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  useEffect(() => {
    onRange?.(first, last);
  }, [first, last, onRange]);

  useImperativeHandle(
    ref,
    () => ({
      reveal(index: number) {
        const el = scroller.current;
        if (!el) return;
        const top = index * rowHeight;
        if (top < el.scrollTop) el.scrollTop = top;
        else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
      },
      focus() {
        scroller.current?.focus({ preventScroll: true });
      },
      element: () => scroller.current,
    }),
    [rowHeight],
  );

  // Rows are keyed by slot, not by index: scrolling reuses the same elements with new content instead of tearing
  // them down and building new ones. They sit in normal flow inside one block moved to the first row's place, so
  // a scroll step changes one position, not one per row.
  const slots = Math.max(64, last - first);
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <div key={index % slots} style={{ height: rowHeight }}>
        {renderRow(index)}
      </div>,
    );
  }

  return (
    <div
      ref={scroller}
      role="listbox"
      aria-label={label}
      aria-activedescendant={activeDescendant}
      tabIndex={0}
      className={classes.list}
      data-testid={testId}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      style={{ overflowY: 'auto', height: '100%', position: 'relative', contain: 'strict' }}
    >
      <div style={{ height: count * rowHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: first * rowHeight, left: 0, right: 0 }}>{rows}</div>
      </div>
    </div>
  );
});
