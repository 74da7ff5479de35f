import { Alert, Button, Group, Loader, Modal, Progress, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { FileClass, Preview } from '../../shared/contract';
import { useBridge } from '../bridge/BridgeContext';
import { errorMessage } from '../bridge/errors';
import { WarningIcon } from '../components/icons';
import { notifySuccess } from '../components/notify';
import { callKey } from '../queries/useCall';
import { requestDesktopNotifications } from '../shell/jobNotifications';
import { mentorHref, navigateTo } from '../shell/routes';
import { formatBytes, formatCount, plural } from '../lib/format';
import { GlobFilters, type Globs } from './GlobFilters';
import { NotCopiedList } from './NotCopiedList';
import { PreviewFilesTable } from './PreviewFilesTable';
import { PreviewSummary, TypeTable } from './PreviewSummary';
import type { ResolvedSource, SourceProgress, TrainSource } from './sources';
import type { MentorTarget } from './TrainFlowContext';

interface PreviewModalProps {
  source: TrainSource;
  mentor: MentorTarget;
  /** A job was started from this preview (the modal closes next). */
  onStarted(): void;
  onClose(): void;
}

type Gathering =
  | { state: 'working'; progress: SourceProgress | null }
  | { state: 'ready'; resolved: ResolvedSource }
  | { state: 'failed'; error: unknown };

/**
 * Gathers the files (browser mode copies them to the host first), previews them with `train.preview` and starts
 * the job with `train.start` only when the admin confirms. Nothing reaches the tenant before that.
 */
export function PreviewModal({ source, mentor, onStarted, onClose }: PreviewModalProps) {
  const bridge = useBridge();
  const [gathering, setGathering] = useState<Gathering>({ state: 'working', progress: null });
  const [globs, setGlobs] = useState<Globs>({ include: [], exclude: [] });
  const [classFilter, setClassFilter] = useState<FileClass | null>(null);
  const [otherTypes, setOtherTypes] = useState(false);
  const started = useRef(false);
  const resolved = gathering.state === 'ready' ? gathering.resolved : null;

  useEffect(() => {
    const controller = new AbortController();
    source
      .resolve((progress) => setGathering({ state: 'working', progress }), controller.signal)
      .then(
        (value) => {
          if (controller.signal.aborted) {
            value.discard?.();
            return;
          }
          setGathering({ state: 'ready', resolved: value });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setGathering({ state: 'failed', error });
        },
      );
    return () => controller.abort();
  }, [source]);

  // Staged copies the admin did not train are removed at once.
  const discard = resolved?.discard;
  useEffect(
    () => () => {
      if (discard && !started.current) discard();
    },
    [discard],
  );

  const input = {
    profileId: mentor.profileId,
    mentor: mentor.uniqueId,
    paths: resolved?.handles ?? [],
    include: globs.include,
    exclude: globs.exclude,
    ...(otherTypes && { otherTypes }),
  };
  const preview = useQuery({
    queryKey: callKey('train.preview', input),
    queryFn: () => bridge.call('train.preview', input),
    enabled: !!resolved && resolved.handles.length > 0,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

  const [access, setAccess] = useState<AccessChoice>('keep');
  const start = useMutation({
    mutationFn: (previewId: string) => bridge.call('train.start', { previewId, ...(access !== 'keep' && { access }) }),
    onSuccess: () => {
      started.current = true;
      notifySuccess(
        'Training started',
        `${mentor.name} is learning ${plural(toSend(preview.data), 'file')}. Its page shows the progress.`,
      );
      // The admin stays with the mentor: its page shows the job's progress and the documents as they train.
      const href = mentorHref(mentor.uniqueId);
      if (window.location.hash !== href) navigateTo(href);
      onStarted();
      onClose();
    },
  });

  function confirm(data: Preview) {
    requestDesktopNotifications();
    start.mutate(data.id);
  }

  const data = preview.data;
  const count = toSend(data);
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Train “${mentor.name}”`}
      size="68rem"
      centered
      closeOnClickOutside={false}
      data-testid="train-preview"
      styles={MODAL_STYLES}
    >
      <div style={SCROLLING_BODY} data-testid="train-preview-body">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            From <strong>{source.label}</strong>. Nothing is sent to the tenant until you confirm.
          </Text>
          {gathering.state === 'working' && <GatheringProgress progress={gathering.progress} />}
          {gathering.state === 'failed' && (
            <Alert color="red" icon={<WarningIcon />} title="The files could not be read">
              {errorMessage(gathering.error)}
            </Alert>
          )}
          {resolved && resolved.notCopied.length > 0 && <NotCopiedList items={resolved.notCopied} />}
          {resolved && resolved.handles.length === 0 && (
            <Alert color="yellow" icon={<WarningIcon />} title="Nothing to preview">
              None of the files could be copied for training.
            </Alert>
          )}
          {preview.isPending && preview.fetchStatus === 'fetching' && (
            <Group gap="sm" py="lg" justify="center" role="status">
              <Loader size="sm" />
              <Text size="sm">Scanning the files and comparing them with what {mentor.name} already knows…</Text>
            </Group>
          )}
          {preview.isError && (
            <Alert color="red" icon={<WarningIcon />} title="The preview failed">
              {errorMessage(preview.error)}
            </Alert>
          )}
          {data && (
            <>
              <PreviewSummary
                preview={data}
                selected={classFilter}
                onSelect={(fileClass) => setClassFilter((current) => (current === fileClass ? null : fileClass))}
              />
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                {data.byType.length > 0 ? <TypeTable preview={data} /> : <div />}
                <Stack gap="sm">
                  <GlobFilters value={globs} onApply={setGlobs} updating={preview.isFetching} />
                  {((data.classes.unsupported ?? 0) > 0 || otherTypes) && (
                    <Switch
                      label="Send other file types too"
                      description="The tenant may train more types than the eight known here; one it cannot read fails alone"
                      checked={otherTypes}
                      onChange={(event) => setOtherTypes(event.currentTarget.checked)}
                      disabled={preview.isFetching}
                    />
                  )}
                </Stack>
              </SimpleGrid>
              <PreviewFilesTable preview={data} fileClass={classFilter} onClassChange={setClassFilter} />
            </>
          )}
          {start.isError && (
            <Alert color="red" icon={<WarningIcon />} title="Training did not start">
              {errorMessage(start.error)}
            </Alert>
          )}
        </Stack>
      </div>
      <Group justify="space-between" gap="sm" style={FOOTER} data-testid="train-preview-footer">
        <Text size="sm" c="dimmed" aria-live="polite">
          {data && count > 0 && `${plural(count, 'file')} · ${formatBytes(data.toSend.bytes)} will be sent.`}
          {data && count === 0 && 'Nothing new or changed to send.'}
        </Text>
        <Group gap="sm" wrap="nowrap">
          <Select
            aria-label="Access of the trained documents"
            title="As it is: a changed file keeps the access of the document it replaces; a new one is private"
            size="sm"
            w={190}
            data={ACCESS_CHOICES}
            value={access}
            onChange={(value) => value && setAccess(value as AccessChoice)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => data && confirm(data)}
            disabled={!data || count === 0 || preview.isFetching}
            loading={start.isPending}
          >
            {count > 0 ? `Train ${plural(count, 'file')}` : 'Train'}
          </Button>
        </Group>
      </Group>
    </Modal>
  );
}

type AccessChoice = 'keep' | 'public' | 'private';

/** Left as it is, a replaced document keeps its access and a new one gets the platform's default (private). */
const ACCESS_CHOICES: { value: AccessChoice; label: string }[] = [
  { value: 'keep', label: 'Access: as it is' },
  { value: 'public', label: 'Access: all public' },
  { value: 'private', label: 'Access: all private' },
];

const toSend = (preview: Preview | undefined) => preview?.toSend.files ?? 0;

/**
 * The modal is a column: its header, a body that scrolls, and the footer with the actions below the body, never
 * over it (a sticky footer inside the scrolling body was covered by the file table's sticky header).
 */
const MODAL_STYLES = {
  content: { display: 'flex', flexDirection: 'column', overflow: 'hidden' },
  body: { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, padding: 0 },
} as const;

const SCROLLING_BODY = {
  flex: 1,
  minHeight: 0,
  overflowY: 'auto',
  padding: '0 var(--mb-padding, 1rem) var(--mb-padding, 1rem)',
} as const;

const FOOTER = {
  flex: 'none',
  borderTop: '1px solid var(--mantine-color-default-border)',
  padding: '0.75rem var(--mb-padding, 1rem)',
} as const;

function GatheringProgress({ progress }: { progress: SourceProgress | null }) {
  if (progress?.step === 'copying') {
    const value = progress.totalBytes > 0 ? (progress.bytes / progress.totalBytes) * 100 : 0;
    return (
      <Stack gap={6} py="md" role="status">
        <Text size="sm">
          Copying files to Mentor Admin: {formatCount(progress.files)} of {plural(progress.totalFiles, 'file')} (
          {formatBytes(progress.bytes)} of {formatBytes(progress.totalBytes)})
        </Text>
        <Progress value={value} animated aria-label="Copying files" />
      </Stack>
    );
  }
  return (
    <Group gap="sm" py="lg" justify="center" role="status">
      <Loader size="sm" />
      <Text size="sm">
        Reading the files…
        {progress?.step === 'reading' && progress.found > 0 && ` ${formatCount(progress.found)} found`}
      </Text>
    </Group>
  );
}
