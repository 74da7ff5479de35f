import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TicketSort, TicketSummary } from '../../../shared/contract';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { useOutsideAnswers } from '../../queries/useDeclaredInvalidation';
import { useCallKey } from '../../queries/useCall';

const BLOCK = 100;
/** Requests in flight at once: while the list flies past, only the blocks in view when one returns are asked for. */
const MAX_IN_FLIGHT = 2;
/** Blocks kept in memory: the ones nearest the view (a long scroll would otherwise keep every row it passed). */
const MAX_BLOCKS = 24;

const blocksOf = ([start, end]: [number, number]) => {
  const out: number[] = [];
  for (let b = Math.floor(start / BLOCK); b <= Math.floor(Math.max(start, end - 1) / BLOCK); b++) out.push(b);
  return out;
};

export interface WindowParams {
  view: string;
  sort: TicketSort;
  search: string;
}

export interface TicketWindow {
  /** null until the first block answered. */
  total: number | null;
  error: string | null;
  /** The row at an index, if its block is loaded (with any optimistic change applied). */
  row(index: number): TicketSummary | undefined;
  /** Loads the blocks covering [start, end). */
  ensure(start: number, end: number): void;
  /** Re-reads the loaded blocks (stale rows stay until fresh ones arrive); the engine's changes do it by themselves. */
  refresh(): void;
  /** Where a ticket is among the loaded rows, or -1. */
  indexOf(id: number): number;
  /** Shows a change before the engine confirms it; `undo` puts the row back as it was. */
  patch(id: number, change: Partial<TicketSummary>): () => void;
  /** Bumps whenever rows change, for memoised children. */
  version: number;
}

/**
 * The rows of a view, read from the engine's cache in blocks of 100 as the list scrolls: the list can hold 100,000
 * tickets while the page holds a few hundred.
 */
export function useTicketWindow(params: WindowParams): TicketWindow {
  const bridge = useBridge();
  // What the engine last answered, and for which params: a newer view, sort or search reads as "loading".
  const [answer, setAnswer] = useState<{
    key: WindowParams | null;
    total: number | null;
    error: string | null;
    version: number;
  }>({
    key: null,
    total: null,
    error: null,
    version: 0,
  });
  const current = answer.key === params;
  const total = current ? answer.total : null;
  const error = current ? answer.error : null;
  const version = answer.version;
  const bump = useCallback(() => setAnswer((a) => ({ ...a, version: a.version + 1 })), []);
  const blocks = useRef(new Map<number, TicketSummary[]>());
  const loading = useRef(new Set<number>());
  const generation = useRef(0);
  /** Optimistic changes, with the updated_at they were made on: a fresher row from the engine replaces them. */
  const overrides = useRef(new Map<number, { change: Partial<TicketSummary>; base: string | undefined }>());
  const range = useRef<[number, number]>([0, BLOCK]);
  const paramsRef = useRef(params);

  const inFlight = useRef(0);
  const pumpRef = useRef<() => void>(() => {});

  const load = useCallback(
    (block: number, gen: number) => {
      loading.current.add(block);
      inFlight.current++;
      const key = paramsRef.current;
      const { view, sort, search } = key;
      bridge
        .call('tickets.list', { view, sort, ...(search ? { search } : {}), offset: block * BLOCK, limit: BLOCK })
        .then(
          (result) => {
            if (gen !== generation.current) return;
            blocks.current.set(block, result.rows);
            if (blocks.current.size > MAX_BLOCKS) {
              const [start] = blocksOf(range.current);
              const far = [...blocks.current.keys()].sort((a, b) => Math.abs(b - start!) - Math.abs(a - start!));
              for (const b of far.slice(0, blocks.current.size - MAX_BLOCKS)) blocks.current.delete(b);
            }
            // A block scrolled past meanwhile is kept for later without drawing anything now.
            const visible = blocksOf(range.current).includes(block);
            setAnswer((a) =>
              !visible && a.key === key && a.total === result.total
                ? a
                : { key, total: result.total, error: null, version: a.version + 1 },
            );
          },
          (failure: unknown) => {
            if (gen === generation.current) {
              setAnswer((a) => ({
                key,
                total: a.key === key ? a.total : null,
                error: errorMessage(failure),
                version: a.version + 1,
              }));
            }
          },
        )
        .finally(() => {
          if (gen !== generation.current) return;
          inFlight.current--;
          loading.current.delete(block);
          pumpRef.current();
        });
    },
    [bridge],
  );

  /** Asks for the missing blocks of the range in view now (never for ranges already scrolled past). */
  const pump = useCallback(() => {
    const gen = generation.current;
    for (const b of blocksOf(range.current)) {
      if (inFlight.current >= MAX_IN_FLIGHT) return;
      if (!blocks.current.has(b) && !loading.current.has(b)) load(b, gen);
    }
  }, [load]);
  useEffect(() => {
    pumpRef.current = pump;
  }, [pump]);

  // While the list flies past, blocks are asked for at most every 100 ms (each answer is garbage a moment later);
  // once it rests, the blocks in view come at once.
  const lastPump = useRef(0);
  const pumpTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const ensure = useCallback(
    (start: number, end: number) => {
      range.current = [start, end];
      clearTimeout(pumpTimer.current);
      const now = performance.now();
      if (now - lastPump.current >= 100) {
        lastPump.current = now;
        pump();
      } else
        pumpTimer.current = setTimeout(
          () => {
            lastPump.current = performance.now();
            pump();
          },
          100 - (now - lastPump.current),
        );
    },
    [pump],
  );
  useEffect(() => () => clearTimeout(pumpTimer.current), []);

  // A new view, sort or search starts from scratch.
  useEffect(() => {
    paramsRef.current = params;
    generation.current++;
    blocks.current.clear();
    loading.current.clear();
    inFlight.current = 0;
    ensure(range.current[0], range.current[1]);
  }, [params, ensure]);

  const refresh = useCallback(() => {
    const gen = generation.current;
    const [start, end] = range.current;
    const visible = new Set(blocksOf([start, end]));
    // Blocks out of sight are dropped (read again when scrolled to); the visible ones are re-read in place.
    for (const b of [...blocks.current.keys()]) if (!visible.has(b)) blocks.current.delete(b);
    if (!visible.size) visible.add(0);
    for (const b of visible) load(b, gen);
  }, [load]);

  // Live: whatever the contract says makes this tenant's ticket lists stale re-reads the rows in view, once per burst.
  const callKey = useCallKey();
  const staleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refreshSoon = useCallback(() => {
    clearTimeout(staleTimer.current);
    staleTimer.current = setTimeout(refresh, 150);
  }, [refresh]);
  useOutsideAnswers(callKey('tickets.list', params), refreshSoon);
  useEffect(() => () => clearTimeout(staleTimer.current), []);

  const patch = useCallback(
    (id: number, change: Partial<TicketSummary>) => {
      const before = overrides.current.get(id);
      let base: string | undefined;
      for (const rows of blocks.current.values()) base ??= rows.find((r) => r.id === id)?.updatedAt;
      overrides.current.set(id, { change: { ...before?.change, ...change }, base: before?.base ?? base });
      bump();
      return () => {
        if (before) overrides.current.set(id, before);
        else overrides.current.delete(id);
        bump();
      };
    },
    [bump],
  );

  return useMemo<TicketWindow>(
    () => ({
      total,
      error,
      version,
      row(index) {
        const row = blocks.current.get(Math.floor(index / BLOCK))?.[index % BLOCK];
        if (!row) return undefined;
        const override = overrides.current.get(row.id);
        if (!override) return row;
        if (override.base !== undefined && row.updatedAt !== override.base) {
          overrides.current.delete(row.id);
          return row;
        }
        return { ...row, ...override.change };
      },
      ensure,
      refresh,
      indexOf(id) {
        for (const [b, rows] of blocks.current) {
          const at = rows.findIndex((r) => r.id === id);
          if (at !== -1) return b * BLOCK + at;
        }
        return -1;
      },
      patch,
    }),
    [total, error, version, ensure, refresh, patch],
  );
}
