import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import type { Job } from '../../shared/contract';
import {
  describeEnding,
  endingWorthTelling,
  jobEndedNote,
  lookedAgain,
  NO_JOB_NOTES,
  summariseEndings,
  type JobNoteState,
} from '../../shared/desktop-notify';
import { useEngineBridge } from '../bridge/BridgeContext';
import type { Bridge } from '../bridge/types';
import { ExportEndedNote } from '../screens/analytics/ExportEndedNote';
import { CheckCircleIcon, WarningIcon } from '../components/icons';
import { useCall } from '../queries/useCall';
import { jobHref, navigateTo } from './routes';

export { describeEnding } from '../../shared/desktop-notify';

const ENDINGS = new Set(['completed', 'failed']);

/**
 * Asks for desktop notifications once, from a click (browsers ignore the request otherwise). Not where the host
 * notifies (the desktop app, whose window refuses every permission): the page says it in-app there.
 */
export function requestDesktopNotifications(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

/** The window is not in front: the admin looks elsewhere, so the desktop is the place to say it. */
const windowInBackground = () => document.hidden || !document.hasFocus();

/** Browser mode's desktop note (the same decision as the desktop app's shell), or false to say it in-app. */
function notifyOnDesktop(state: { current: JobNoteState }, job: Job, enabled: boolean): boolean {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  const decided = jobEndedNote(state.current, job, {
    enabled,
    looking: !windowInBackground(),
    now: Date.now(),
  });
  state.current = decided.state;
  const note = decided.note;
  if (!note) return false;
  const desktop = new Notification(note.title, { body: note.body, tag: note.tag, silent: note.silent });
  desktop.onclick = () => {
    window.focus();
    state.current = lookedAgain(state.current);
    navigateTo(note.href);
    desktop.close();
  };
  return true;
}

/** The toast shown for each job's ending, so opening the job (by any way) puts it away. */
const endingToasts = new Map<string, string>();
/** Endings folded into one summary toast, by job id. */
const summarised = new Map<string, Job>();
const SUMMARY_ID = 'job-endings-summary';
/** A third plain ending on screen folds them into one toast: stacked toasts would climb up over the sidebar. */
const SUMMARISE_FROM = 3;
/** Jobs told in their own plain toast (not exports, which carry their file), for folding. */
const plainToasts = new Map<string, Job>();

/** One id per ending: the same ending told twice shows once, and opening the job finds its toast. */
function endingToastId(job: Job): string {
  const id = `job-ended-${job.id}-${job.finishedAt ?? job.updatedAt}`;
  endingToasts.set(job.id, id);
  return id;
}

function forgetToast(jobId: string, id: string): void {
  if (endingToasts.get(jobId) !== id) return;
  endingToasts.delete(jobId);
  plainToasts.delete(jobId);
}

/** A finished export says where its file is and offers it (the analytics area draws the note); it stays like any other. */
function notifyExportInApp(bridge: Bridge, job: Job): void {
  bridge.call('analytics.export', { id: job.id }).then(
    (info) => {
      if (window.location.hash === jobHref(job.id)) return;
      const id = endingToastId(job);
      notifications.show({
        id,
        title: describeEnding(job).title,
        color: 'teal',
        icon: <CheckCircleIcon size={16} />,
        autoClose: false,
        message: <ExportEndedNote info={info} bridge={bridge} jobHref={jobHref(job.id)} />,
        onClose: () => forgetToast(job.id, id),
      });
    },
    () => notifyInApp(job),
  );
}

function showSummary(): void {
  if (summarised.size === 0) {
    notifications.hide(SUMMARY_ID);
    return;
  }
  const summary = summariseEndings([...summarised.values()]);
  const toast = {
    id: SUMMARY_ID,
    title: summary.title,
    color: summary.ok ? 'teal' : 'red',
    icon: summary.ok ? <CheckCircleIcon size={16} /> : <WarningIcon size={16} />,
    autoClose: false as const,
    message: (
      <>
        <Text size="sm">{summary.message}</Text>
        <Anchor size="sm" href="#/jobs" onClick={() => clearSummary()}>
          View jobs
        </Anchor>
      </>
    ),
    onClose: () => summarised.clear(),
  };
  // Each is a no-op where the other acts: update changes the summary on screen, show puts up a new one.
  notifications.update(toast);
  notifications.show(toast);
}

function clearSummary(): void {
  summarised.clear();
  notifications.hide(SUMMARY_ID);
}

/** Folds the plain toasts on screen, and this ending, into the summary. */
function fold(job: Job): void {
  for (const [jobId, shown] of plainToasts) {
    const id = endingToasts.get(jobId);
    endingToasts.delete(jobId);
    if (id) notifications.hide(id);
    summarised.set(jobId, shown);
  }
  plainToasts.clear();
  summarised.set(job.id, job);
  showSummary();
}

/**
 * A job ended: one toast per ending. It carries "View job", so it stays until the admin dismisses it or opens the
 * job: a toast that times out takes its action away before a busy admin gets to it. From the third ending on screen
 * they fold into one "N jobs ended" toast that leads to the Jobs list.
 */
function notifyInApp(job: Job): void {
  // The admin is on the job's page: the page says it.
  if (window.location.hash === jobHref(job.id)) return;
  if (summarised.size > 0 || plainToasts.size + 1 >= SUMMARISE_FROM) {
    fold(job);
    return;
  }
  const ending = describeEnding(job);
  const id = endingToastId(job);
  plainToasts.set(job.id, job);
  notifications.show({
    id,
    title: ending.title,
    color: ending.ok ? 'teal' : job.state === 'failed' ? 'red' : 'orange',
    icon: ending.ok ? <CheckCircleIcon size={16} /> : <WarningIcon size={16} />,
    autoClose: false,
    message: (
      <>
        <Text size="sm">{ending.message}</Text>
        <Anchor size="sm" href={jobHref(job.id)} onClick={() => dismissJobEndToast(job.id)}>
          View job
        </Anchor>
      </>
    ),
    onClose: () => forgetToast(job.id, id),
  });
}

/** The admin has the job in front of them: its ending's toast (or its line in the summary) has done its work. */
export function dismissJobEndToast(jobId: string): void {
  if (summarised.delete(jobId)) showSummary();
  const id = endingToasts.get(jobId);
  if (!id) return;
  endingToasts.delete(jobId);
  plainToasts.delete(jobId);
  notifications.hide(id);
}

/** Says when a job ends (completed or failed), once per ending: a retried job that ends again says so again. */
export function useJobEndNotifications(): void {
  // Every tenant's jobs: a job ends whichever tenant the window shows.
  const bridge = useEngineBridge();
  const settings = useCall('settings.get', {});
  const enabled = settings.data?.notifyJobEnds ?? true;
  const desktop = useRef(NO_JOB_NOTES);
  const desktopEnabled = useRef(enabled);
  useEffect(() => {
    desktopEnabled.current = enabled;
  }, [enabled]);
  useEffect(() => {
    const seen = () => void (desktop.current = lookedAgain(desktop.current));
    window.addEventListener('focus', seen);
    const lastState = new Map<string, string>();
    const off = bridge.onEvent((event) => {
      if (event.name !== 'jobs.changed') return;
      const { id, state } = event.payload;
      const previous = lastState.get(id);
      lastState.set(id, state);
      if (!ENDINGS.has(state) || previous === state) return;
      bridge.call('jobs.get', { id }).then(
        (job) => {
          // A sent ticket reply is told where it was written (the ticket), not again in a corner over the reply box.
          if (!ENDINGS.has(job.state) || !endingWorthTelling(job)) return;
          // A host that notifies puts it on the desktop itself; the page says it in-app either way there.
          if (bridge.capabilities.notifications || !notifyOnDesktop(desktop, job, desktopEnabled.current)) {
            if (job.kind === 'export' && job.state === 'completed') notifyExportInApp(bridge, job);
            else notifyInApp(job);
          }
        },
        () => undefined,
      );
    });
    return () => {
      window.removeEventListener('focus', seen);
      off();
    };
  }, [bridge]);
}
