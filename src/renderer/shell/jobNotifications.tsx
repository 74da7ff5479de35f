import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import type { Job } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';
import { CheckCircleIcon, WarningIcon } from '../components/icons';
import { KIND_LABELS } from '../screens/jobs/jobPresentation';
import { plural } from '../train/format';
import { jobHref, navigateTo } from './routes';

const ENDINGS = new Set(['completed', 'failed']);

/**
 * Asks for desktop notifications once, from a click (browsers ignore the request otherwise). Electron's window
 * refuses every permission, so there the answer is "denied" and the app notifies in-app.
 */
export function requestDesktopNotifications(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

export function describeEnding(job: Job): { title: string; message: string; ok: boolean } {
  const kind = KIND_LABELS[job.kind];
  const { done, failed, skipped, total } = job.progress;
  if (job.state === 'failed') {
    return { title: `${kind} failed`, message: `${job.title}: ${job.error ?? 'it could not go on'}`, ok: false };
  }
  const parts = [`${done} done`];
  if (failed) parts.push(`${failed} failed`);
  if (skipped) parts.push(`${skipped} skipped`);
  return {
    title: failed ? `${kind} finished with ${plural(failed, 'failure')}` : `${kind} finished`,
    message: `${job.title} — ${parts.join(', ')}${failed || skipped ? ` of ${total}` : ''}.`,
    ok: failed === 0,
  };
}

/** The window is not in front: the admin looks elsewhere, so the desktop is the place to say it. */
const windowInBackground = () => document.hidden || !document.hasFocus();

function notify(job: Job): void {
  const ending = describeEnding(job);
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && windowInBackground()) {
    const desktop = new Notification(ending.title, { body: ending.message, tag: `job-${job.id}` });
    desktop.onclick = () => {
      window.focus();
      navigateTo(jobHref(job.id));
      desktop.close();
    };
    return;
  }
  notifications.show({
    title: ending.title,
    color: ending.ok ? 'teal' : job.state === 'failed' ? 'red' : 'orange',
    icon: ending.ok ? <CheckCircleIcon size={16} /> : <WarningIcon size={16} />,
    autoClose: ending.ok ? 6000 : 15_000,
    message: (
      <>
        <Text size="sm">{ending.message}</Text>
        <Anchor size="sm" href={jobHref(job.id)}>
          View job
        </Anchor>
      </>
    ),
  });
}

/** Says when a job ends (completed or failed), once per ending: a retried job that ends again says so again. */
export function useJobEndNotifications(): void {
  const bridge = useBridge();
  useEffect(() => {
    const lastState = new Map<string, string>();
    return bridge.onEvent((event) => {
      if (event.name !== 'jobs.changed') return;
      const { id, state } = event.payload;
      const previous = lastState.get(id);
      lastState.set(id, state);
      if (!ENDINGS.has(state) || previous === state) return;
      bridge.call('jobs.get', { id }).then(
        (job) => {
          if (ENDINGS.has(job.state)) notify(job);
        },
        () => undefined,
      );
    });
  }, [bridge]);
}
