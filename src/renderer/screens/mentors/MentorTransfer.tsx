/**
 * A mentor's configuration moved between files and tenants: Export… (a versioned JSON file, no secret), Import
 * mentor… (pick a file, see what will be created and what this tenant lacks, then create) and Copy to tenant… (pick
 * the tenant, the same preview, then copy). What a target lacks is always shown before anything is written.
 */
import { WriteButton } from '../../resources/writeGate';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  FileButton,
  Group,
  List,
  Modal,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import {
  parseMentorConfig,
  type Mentor,
  type MentorCopyDocuments,
  type MentorImportPlan,
} from '../../../shared/contract';
import { DownloadIcon, UploadIcon, WarningIcon } from '../../components/icons';
import { JobActions } from '../../components/jobs/JobActions';
import { JobProgressCard } from '../../components/jobs/JobProgressCard';
import { JobStateBadge } from '../../components/jobs/JobStateBadge';
import { formatCount } from '../../lib/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { saveFile } from '../../lib/saveFile';
import { useCall, useMutationCall } from '../../queries/useCall';
import { jobHref, mentorHref, navigateTo } from '../../shell/routes';

/** Cancel, and the action (its loading state while it runs). */
function Footer(props: { label: string; busy: boolean; disabled: boolean; onCancel(): void; onAct(): void }) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={props.onCancel} disabled={props.busy}>
        Cancel
      </Button>
      <Button onClick={props.onAct} loading={props.busy} disabled={props.disabled}>
        {props.label}
      </Button>
    </Group>
  );
}

/** "Export…": the configuration saved as a file (the browser's download, the desktop's save dialog). */
export function ExportMentorButton({
  profileId,
  mentor,
  refusal,
}: {
  profileId: string;
  mentor: Mentor;
  /** Why it cannot be exported now (the tenant is out of reach), or null. */
  refusal: string | null;
}) {
  const exported = useMutationCall('mentors.exportConfig');
  return (
    <WriteButton
      refusal={refusal}
      variant="default"
      size="sm"
      leftSection={<DownloadIcon size={16} />}
      loading={exported.isPending}
      onClick={() =>
        exported.mutate(
          { profileId, mentor: mentor.uniqueId },
          {
            onSuccess: ({ config, fileName }) => {
              saveFile(new Blob([`${JSON.stringify(config, null, 2)}\n`], { type: 'application/json' }), fileName);
              notifySuccess('Configuration exported', `${fileName}: no secret is in it (see its manifest).`);
            },
            onError: (error) => notifyError('Not exported', error),
          },
        )
      }
    >
      Export…
    </WriteButton>
  );
}

/** What an import or a copy will do, and what the target lacks (left out). */
export function PlanPreview({ plan, tenantName }: { plan: MentorImportPlan; tenantName: string }) {
  const parts = [
    `${plan.settings.length} settings`,
    ...(plan.categories.length ? [`categories ${plan.categories.join(', ')}`] : []),
    ...(plan.mcpServers.length ? [`MCP servers ${plan.mcpServers.join(', ')}`] : []),
    ...(plan.callConfiguration ? ['its call configuration'] : []),
  ];
  return (
    <Stack gap="xs" data-testid="mentor-plan">
      <Text size="sm">
        {plan.action === 'create' ? 'Creates' : 'Updates'} the mentor <strong>{plan.name}</strong> on{' '}
        <strong>{tenantName}</strong> with {parts.join(', ')}.
      </Text>
      {plan.leftOut.length > 0 ? (
        <Alert color="yellow" icon={<WarningIcon />} title={`Left out: ${tenantName} lacks these`} p="sm">
          <List size="sm" spacing={4} data-testid="left-out">
            {plan.leftOut.map((item) => (
              <List.Item key={`${item.field} ${item.value}`}>
                <strong>{item.value}</strong> ({item.field}): {item.reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          Nothing is left out.
        </Text>
      )}
    </Stack>
  );
}

/** "Import mentor…": pick a configuration file, see the preview, create (or update the mentor of that name). */
export function ImportMentorModal({
  profileId,
  tenantName,
  opened,
  onClose,
}: {
  profileId: string;
  tenantName: string;
  opened: boolean;
  onClose(): void;
}) {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [debouncedName] = useDebouncedValue(name.trim(), 300);
  const planned = useMutationCall('mentors.planImport');
  const imported = useMutationCall('mentors.importConfig');
  const input = file && { profileId, text: file.text, ...(debouncedName ? { name: debouncedName } : {}) };
  const { mutate: plan } = planned;
  // A preview stands only for what is typed now: none while the name is being changed or its plan is on the way.
  const current = planned.data && !planned.isPending && debouncedName === name.trim() ? planned.data : null;

  useEffect(() => {
    if (input) plan(input);
    // The plan follows the file and the name, nothing else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file, debouncedName, plan]);

  const close = () => {
    setFile(null);
    setProblem(null);
    setName('');
    planned.reset();
    imported.reset();
    onClose();
  };

  async function choose(chosen: File | null) {
    if (!chosen) return;
    const text = await chosen.text();
    const parsed = parseMentorConfig(text);
    planned.reset();
    if ('problem' in parsed) {
      setFile(null);
      setProblem(`${chosen.name}: ${parsed.problem}`);
      return;
    }
    setProblem(null);
    setName('');
    setFile({ name: chosen.name, text });
  }

  return (
    <Modal opened={opened} onClose={close} title="Import a mentor" centered size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A configuration file exported by Mentor Admin: its settings, categories, MCP servers and call configuration.
          What {tenantName} lacks is listed before anything is created.
        </Text>
        <Group gap="sm" wrap="nowrap">
          <FileButton onChange={(chosen) => void choose(chosen)} accept="application/json,.json">
            {(props) => (
              <Button {...props} variant="default" leftSection={<UploadIcon size={16} />}>
                Choose file…
              </Button>
            )}
          </FileButton>
          <Text size="sm" truncate data-testid="import-file">
            {file?.name ?? 'No file chosen'}
          </Text>
        </Group>
        {problem && (
          <Alert color="red" icon={<WarningIcon />} title="This file cannot be imported" role="alert">
            {problem}
          </Alert>
        )}
        {file && (
          <TextInput
            label="Name"
            description="A new mentor of this name is created; if one has it already, that one is updated."
            placeholder={planned.data?.name ?? ''}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
        )}
        {planned.isError && (
          <Alert color="red" icon={<WarningIcon />} title="No preview" role="alert">
            {planned.error.message}
          </Alert>
        )}
        {current && file && <PlanPreview plan={current} tenantName={tenantName} />}
        {imported.isError && (
          <Alert color="red" icon={<WarningIcon />} title="Not imported" role="alert">
            {imported.error.message}
          </Alert>
        )}
        <Footer
          onCancel={close}
          label={current?.action === 'update' ? 'Update mentor' : 'Create mentor'}
          busy={imported.isPending}
          disabled={!input || !current}
          onAct={() =>
            input &&
            imported.mutate(input, {
              onSuccess: ({ mentor, plan }) => {
                notifySuccess(
                  plan.action === 'create' ? 'Mentor imported' : 'Mentor updated',
                  `${mentor.name}${plan.leftOut.length ? `: ${plan.leftOut.length} left out` : ''}.`,
                );
                close();
                navigateTo(mentorHref(mentor.uniqueId));
              },
            })
          }
        />
      </Stack>
    </Modal>
  );
}

/** How many of the documents that cannot be copied are named in the preview (the job's report has them all). */
const NOT_COPIED_SHOWN = 50;

/** What was not copied, grouped by why (the same reason for many files is said once), the names after it. */
function NotCopiedList({ items, testId }: { items: { key: string; name: string; reason: string }[]; testId: string }) {
  const groups = new Map<string, string[]>();
  for (const item of items.slice(0, NOT_COPIED_SHOWN))
    groups.set(item.reason, [...(groups.get(item.reason) ?? []), item.name]);
  return (
    <ScrollArea.Autosize mah={140} type="auto">
      <Stack gap={6} data-testid={testId}>
        {[...groups].map(([reason, names]) => (
          <Text size="sm" key={reason}>
            {reason}: <strong>{names.join(', ')}</strong>
          </Text>
        ))}
      </Stack>
      {items.length > NOT_COPIED_SHOWN && (
        <Text size="xs" c="dimmed" mt={4}>
          And {formatCount(items.length - NOT_COPIED_SHOWN)} more: the job&apos;s report lists every one.
        </Text>
      )}
    </ScrollArea.Autosize>
  );
}

/** Which documents a copy trains on the target, and each one it cannot copy, with the reason. */
function DocumentsPreview({ documents, tenantName }: { documents: MentorCopyDocuments; tenantName: string }) {
  const { copied, notCopied } = documents;
  return (
    <Stack gap="xs" data-testid="copy-documents">
      <Text size="sm">
        {copied.length
          ? `${formatCount(copied.length)} trained ${copied.length === 1 ? 'document is' : 'documents are'} trained on ${tenantName} from ${copied.length === 1 ? 'its URL' : 'their URLs'}.`
          : 'No document can be copied.'}
      </Text>
      {notCopied.length > 0 && (
        <Alert
          color="yellow"
          icon={<WarningIcon />}
          title={`Not copied: ${formatCount(notCopied.length)} ${notCopied.length === 1 ? 'document' : 'documents'}`}
          p="sm"
        >
          <NotCopiedList
            testId="not-copied"
            items={notCopied.map((doc) => ({ key: doc.id, name: doc.name, reason: doc.reason }))}
          />
        </Alert>
      )}
    </Stack>
  );
}

/** The copy's job, followed until it ends: its progress, then what was not copied or failed. */
function CopyProgress({ jobId, onClose }: { jobId: string; onClose(): void }) {
  const job = useCall('jobs.get', { id: jobId });
  const ended = !!job.data && ['completed', 'failed', 'cancelled'].includes(job.data.state);
  const left = useCall(
    'jobs.items',
    { id: jobId, states: ['skipped', 'failed'], limit: NOT_COPIED_SHOWN },
    { enabled: ended },
  );
  if (!job.data) return <Skeleton height={160} />;
  const items = left.data?.items ?? [];
  return (
    <Stack gap="md" data-testid="copy-job">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="nowrap" miw={0}>
          <JobStateBadge job={job.data} />
          <Text size="sm" truncate>
            {job.data.title}
          </Text>
        </Group>
        <Anchor href={jobHref(jobId)} size="sm">
          Open the job
        </Anchor>
      </Group>
      <JobProgressCard job={job.data} />
      {ended && items.length > 0 && (
        <Alert color="yellow" icon={<WarningIcon />} title="Not copied" p="sm">
          <NotCopiedList
            testId="copy-left"
            items={items.map((item) => ({ key: String(item.id), name: item.label, reason: item.error ?? item.state }))}
          />
        </Alert>
      )}
      <Group justify="space-between" gap="sm">
        <JobActions job={job.data} />
        <Button onClick={onClose} variant={ended ? 'filled' : 'default'}>
          {ended ? 'Done' : 'Close (it goes on)'}
        </Button>
      </Group>
    </Stack>
  );
}

/** "Copy to tenant…": the tenant picker, a dry run's preview, then the copy as a job, followed here. */
export function CopyMentorModal({
  profileId,
  mentor,
  opened,
  onClose,
}: {
  profileId: string;
  mentor: Mentor;
  opened: boolean;
  onClose(): void;
}) {
  const profiles = useCall('profiles.list', {}, { enabled: opened });
  const [to, setTo] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [withDocuments, setWithDocuments] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [debouncedName] = useDebouncedValue(name.trim(), 300);
  const preview = useMutationCall('mentors.copy');
  const copy = useMutationCall('mentors.copy');
  const input = to && {
    profileId,
    mentor: mentor.uniqueId,
    toProfileId: to,
    ...(debouncedName ? { name: debouncedName } : {}),
    ...(withDocuments ? { withDocuments: true } : {}),
  };
  const { mutate: plan } = preview;
  const target = profiles.data?.find((p) => p.id === to);
  const current = preview.data && !preview.isPending && debouncedName === name.trim() ? preview.data : null;

  useEffect(() => {
    if (input) plan({ ...input, dryRun: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [to, debouncedName, withDocuments, plan]);

  const close = () => {
    setTo(null);
    setName('');
    setWithDocuments(false);
    setJobId(null);
    preview.reset();
    copy.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={`Copy ${mentor.name}`} centered size="lg">
      {jobId ? (
        <CopyProgress jobId={jobId} onClose={close} />
      ) : (
        <Stack gap="md">
          <Select
            label="To tenant"
            placeholder="Choose a tenant"
            data={(profiles.data ?? []).map((p) => ({
              value: p.id,
              label: p.id === profileId ? `${p.name} (this tenant)` : p.name,
            }))}
            value={to}
            onChange={setTo}
            allowDeselect={false}
            data-autofocus
          />
          {to && (
            <TextInput
              label="Name"
              description="A mentor of this name on that tenant is updated instead."
              placeholder={preview.data?.plan.name ?? mentor.name}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
            />
          )}
          <Checkbox
            label="Copy its trained documents too"
            description="Documents the platform gives a URL for are trained there from it; the platform gives no way to read an uploaded file, so those are listed and not copied."
            checked={withDocuments}
            onChange={(event) => setWithDocuments(event.currentTarget.checked)}
          />
          {preview.isError && (
            <Alert color="red" icon={<WarningIcon />} title="No preview" role="alert">
              {preview.error.message}
            </Alert>
          )}
          {current && target && <PlanPreview plan={current.plan} tenantName={target.name} />}
          {current?.documents && target && <DocumentsPreview documents={current.documents} tenantName={target.name} />}
          <Text size="xs" c="dimmed">
            Secrets (MCP server credentials, call credentials) are not copied
            {withDocuments ? '.' : ', nor are trained documents unless asked for above.'}
          </Text>
          {copy.isError && (
            <Alert color="red" icon={<WarningIcon />} title="Not copied" role="alert">
              {copy.error.message}
            </Alert>
          )}
          <Footer
            onCancel={close}
            label="Copy"
            busy={copy.isPending}
            disabled={!input || !current}
            onAct={() =>
              input &&
              copy.mutate(input, {
                onSuccess: ({ job }) => {
                  if (job) setJobId(job.id);
                },
              })
            }
          />
        </Stack>
      )}
    </Modal>
  );
}
