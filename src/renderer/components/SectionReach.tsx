/**
 * A page of sections that each read the tenant (a person's page): when the tenant cannot be reached, the app's banner
 * says so once (with its Check again), and each section shows what this computer has saved or "Not available
 * offline", rather than each repeating the same error with its own buttons. Until the banner knows (the engine's word
 * arrives just after the failure), the page says it at its top with one Try again for every section that failed. A
 * section that failed for another reason still says why itself.
 */
import { Text } from '@mantine/core';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { NOT_AVAILABLE_OFFLINE } from './FreshnessBar';
import { LoadErrorAlert } from './LoadErrorAlert';
import { isUnreachable } from './nextStep';
import { useTenantReach } from '../tenants/useTenantReach';

interface Failure {
  error: unknown;
  retry(): void;
}
/** A section showing what this computer saved because the tenant did not answer: nothing to retry or say again. */
const SAVED_COPY = 'saved copy';
type Report = Failure | typeof SAVED_COPY;

const Reach = createContext<((section: string, failure: Report | null) => void) | null>(null);
const Unreachable = createContext(false);

/** Whether a section of the page found the tenant out of reach: what the others show from this computer is old. */
export const usePageUnreachable = () => useContext(Unreachable);

/**
 * The sections inside, with the one notice when the tenant could not be reached for any of them. `onReach` hears
 * whether any section found the tenant out of reach (failed, or showing its saved copy), for the page's writes.
 */
export function SectionReach({
  what,
  onReach,
  children,
}: {
  what: string;
  onReach?(unreachable: boolean): void;
  children: ReactNode;
}) {
  const [reports, setReports] = useState<ReadonlyMap<string, Report>>(new Map());
  const report = useCallback((section: string, failure: Report | null) => {
    setReports((was) => {
      if (!failure && !was.has(section)) return was;
      const next = new Map(was);
      if (failure) next.set(section, failure);
      else next.delete(section);
      return next;
    });
  }, []);
  const failures = [...reports.values()].filter((failure): failure is Failure => failure !== SAVED_COPY);
  const first = failures[0];
  // The engine's word on the tenant counts too: a section still answered from a fresh cache is then a saved copy.
  const tenant = useTenantReach();
  const unreachable = reports.size > 0 || tenant.unreachable;
  useEffect(() => onReach?.(unreachable), [onReach, unreachable]);
  return (
    <Reach.Provider value={report}>
      <Unreachable.Provider value={unreachable}>
        {first && !tenant.unreachable && (
          <LoadErrorAlert
            title="The tenant cannot be reached"
            error={first.error}
            onRetry={() => failures.forEach((failure) => failure.retry())}
          >
            {` What this computer has saved of ${what} shows below; the rest appears once the tenant answers.`}
          </LoadErrorAlert>
        )}
        {children}
      </Unreachable.Provider>
    </Reach.Provider>
  );
}

/**
 * A section's failure to load: left to the page's notice when the tenant is out of reach (inside `SectionReach`),
 * else said here with the section's own Try again.
 */
export function SectionLoadError({
  section,
  title,
  error,
  onRetry,
}: {
  section: string;
  title: string;
  error: unknown;
  onRetry(): void;
}) {
  const report = useContext(Reach);
  const quiet = !!report && isUnreachable(error);
  // The failure changes with the error only (a new Try again each render would report it again and again).
  const retry = useRef(onRetry);
  useEffect(() => {
    retry.current = onRetry;
  });
  const failure = useMemo(() => ({ error, retry: () => retry.current() }), [error]);
  useEffect(() => {
    if (!quiet || !report) return;
    report(section, failure);
    return () => report(section, null);
  }, [quiet, report, section, failure]);
  if (quiet) {
    return (
      <Text size="sm" c="dimmed" data-testid="section-unavailable">
        {NOT_AVAILABLE_OFFLINE}
      </Text>
    );
  }
  return <LoadErrorAlert title={title} error={error} onRetry={onRetry} />;
}

/** A section shown from the copy saved on this computer because the tenant did not answer (inside `SectionReach`). */
export function useSavedCopyReport(section: string, offline: boolean): void {
  const report = useContext(Reach);
  useEffect(() => {
    if (!offline || !report) return;
    report(section, SAVED_COPY);
    return () => report(section, null);
  }, [offline, report, section]);
}
