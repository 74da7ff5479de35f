/**
 * One badge: its image and criteria, editing and deleting it, issuing it to the people who completed its course (or
 * another course: the people listed first, a report after) or to a CSV file's people, and its holders (the platform's
 * assertions), each linked to the person's page and revocable with a reason.
 */
import {
  Alert,
  Anchor,
  Badge as Pill,
  Button,
  Group,
  List,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import type { Badge, BadgeAssertion } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { NOT_AVAILABLE_OFFLINE } from '../../components/FreshnessBar';
import { isUnreachable } from '../../components/nextStep';
import { notifySuccess } from '../../components/notify';
import { formatCount, formatDate, formatDateTime, plural } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { navigateTo } from '../../shell/routes';
import { ImagePreview } from '../../resources/fields/ImageField';
import { WriteButton, writeRefusalOf } from '../../resources/writeGate';
import { BadgeForm } from './BadgeForm';
import { BadgeImportModal } from './BadgeImportModal';
import { HolderLink } from './HolderLink';

export function BadgeDetail({
  badge,
  courseName,
  refusal: listRefusal,
}: {
  badge: Badge;
  /** The course's name, when the catalogue knows it. */ courseName?: string | undefined;
  /** Why issuing and revoking are off (the badge list is the saved copy), or null. */
  refusal: string | null;
}) {
  const assertions = useCall('badges.assertions', { badge: badge.id });
  // The assertions being the saved copy says as much as the list: the tenant did not answer.
  const refusal = listRefusal ?? writeRefusalOf(assertions.data?.freshness);
  const [issuing, setIssuing] = useState(false);
  const [importing, setImporting] = useState(false);
  const [revoking, setRevoking] = useState<BadgeAssertion | null>(null);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const standing = assertions.data?.assertions.filter((a) => !a.revoked).length;
  return (
    <Stack gap="sm" data-testid="badge-detail">
      <Group align="flex-start" wrap="nowrap">
        <ImagePreview value={badge.image} label={`${badge.name} image`} size={64} />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Title order={3}>{badge.name}</Title>
          {badge.description && <Text size="sm">{badge.description}</Text>}
          {badge.criteria && (
            <Text size="sm" c="dimmed">
              Criteria: {badge.criteria}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {badge.course ? `Course: ${courseName ?? badge.course}` : 'No course'}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <WriteButton size="xs" variant="default" refusal={refusal} onClick={() => setEditing(true)}>
            Edit…
          </WriteButton>
          <WriteButton size="xs" variant="subtle" color="red" refusal={refusal} onClick={() => setDeleting(true)}>
            Delete…
          </WriteButton>
        </Group>
      </Group>
      <Group gap="xs">
        <WriteButton refusal={refusal} onClick={() => setIssuing(true)}>
          Issue to course completers…
        </WriteButton>
        <WriteButton variant="default" refusal={refusal} onClick={() => setImporting(true)}>
          Issue from a CSV file…
        </WriteButton>
      </Group>
      <Group justify="space-between">
        <Title order={4}>Holders</Title>
        {standing !== undefined && (
          <Text size="sm" c="dimmed" data-testid="badge-standing">
            {plural(standing, 'holder')}
          </Text>
        )}
      </Group>
      {assertions.error && isUnreachable(assertions.error) ? (
        // The app-wide notice already says the tenant cannot be reached, with its own Check again.
        <Text size="sm" c="dimmed" data-testid="holders-unavailable">
          {NOT_AVAILABLE_OFFLINE}
        </Text>
      ) : assertions.error ? (
        <LoadErrorAlert
          title="Holders could not be loaded"
          error={assertions.error}
          onRetry={() => void assertions.refetch()}
        />
      ) : assertions.data && assertions.data.assertions.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody holds this badge yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420} mah={360}>
          <Table striped highlightOnHover stickyHeader data-testid="badge-assertions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Person</Table.Th>
                <Table.Th>Issued</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(assertions.data?.assertions ?? []).map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <HolderLink username={a.username} />
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {a.email}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }} title={formatDateTime(a.issuedOn)}>
                    {formatDate(a.issuedOn)}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {a.revoked ? (
                      <Pill color="red" variant="light" title={a.revocationReason}>
                        Revoked
                      </Pill>
                    ) : (
                      <Pill color="green" variant="light">
                        Held
                      </Pill>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {!a.revoked && (
                      <WriteButton
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        refusal={refusal}
                        onClick={() => setRevoking(a)}
                        aria-label={`Revoke ${a.username}'s badge`}
                      >
                        Revoke
                      </WriteButton>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <IssueModal badge={badge} opened={issuing} onClose={() => setIssuing(false)} />
      <BadgeImportModal badge={badge} opened={importing} onClose={() => setImporting(false)} />
      <RevokeModal target={revoking} onClose={() => setRevoking(null)} />
      {editing && <BadgeForm opened editing={badge} onClose={() => setEditing(false)} onDefined={() => {}} />}
      <DeleteModal badge={badge} holders={standing} opened={deleting} onClose={() => setDeleting(false)} />
    </Stack>
  );
}

/** Courses by their names; the id only where two share a name (the picker's labels must tell them apart). */
function courseOptions(courses: readonly { id: string; name: string }[]) {
  const count = new Map<string, number>();
  for (const c of courses) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  return courses.map((c) => ({ value: c.id, label: (count.get(c.name) ?? 0) > 1 ? `${c.name} (${c.id})` : c.name }));
}

/** Deleting names the badge and how many hold it (the platform removes their records of it with the badge). */
function DeleteModal({
  badge,
  holders,
  opened,
  onClose,
}: {
  badge: Badge;
  /** People holding it now, once the holders are read. */
  holders: number | undefined;
  opened: boolean;
  onClose(): void;
}) {
  const remove = useMutationCall('badges.delete');
  const count = holders ?? badge.issued;
  function close() {
    remove.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={`Delete “${badge.name}”?`}>
      <Stack gap="sm">
        <Text size="sm" data-testid="delete-holders">
          {count === null
            ? 'How many people hold this badge could not be read.'
            : count === 0
              ? 'Nobody holds this badge.'
              : `${plural(count, 'person holds', 'people hold')} this badge: their records of it are deleted with it.`}{' '}
          This cannot be undone.
        </Text>
        {remove.isError && (
          <Alert color="red" title="Not deleted" role="alert">
            {errorMessage(remove.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              // Awaited, not an onSuccess callback: the list can drop the badge (and this dialog) before the answer.
              void remove.mutateAsync({ badge: badge.id }).then(
                () => {
                  notifySuccess('Badge deleted', badge.name);
                  close();
                  navigateTo('#/credentials');
                },
                () => {},
              )
            }
          >
            Delete “{badge.name}”
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type IssueReport = { issued: string[]; already: string[]; failed: { person: string; reason: string }[] };

/**
 * Reads who completed the course and lists them, those holding the badge already marked and left out; issues it to
 * the rest in bulk, then says what happened: issued, already held, and each failure with its reason.
 */
function IssueModal({ badge, opened, onClose }: { badge: Badge; opened: boolean; onClose(): void }) {
  const [course, setCourse] = useState<string | null>(badge.course);
  const [report, setReport] = useState<IssueReport | null>(null);
  const courses = useCall('invitations.courses', {}, { enabled: opened });
  // Once sent, the completers are not read again: the issue's refresh of the badge screens would otherwise wait on
  // every completion being read anew before the report shows.
  const [sent, setSent] = useState(false);
  const completers = useCall('badges.completers', { course: course ?? '' }, { enabled: opened && !!course && !sent });
  const assertions = useCall('badges.assertions', { badge: badge.id }, { enabled: opened });
  const issue = useMutationCall('badges.issue');
  const holders = new Set(
    (assertions.data?.assertions ?? []).filter((a) => !a.revoked).flatMap((a) => [a.username, a.email.toLowerCase()]),
  );
  const people = completers.data?.completers ?? [];
  const holds = (p: { username: string; email: string }) =>
    holders.has(p.username) || holders.has(p.email.toLowerCase());
  const toIssue = people.filter((p) => !holds(p)).map((p) => p.username);
  const nameOf = new Map(people.map((p) => [p.username, p.name ?? p.username]));
  function close() {
    issue.reset();
    setReport(null);
    setSent(false);
    onClose();
  }
  const reading = !sent && (completers.isFetching || assertions.isFetching);
  return (
    <Modal opened={opened} onClose={close} title={`Issue “${badge.name}”`} size="lg">
      {report ? (
        <Stack gap="sm" data-testid="issue-report">
          <List size="sm" spacing={4}>
            <List.Item>Issued to {plural(report.issued.length, 'person', 'people')}</List.Item>
            <List.Item>Already held by {formatCount(report.already.length)}</List.Item>
            <List.Item>Failed for {formatCount(report.failed.length)}</List.Item>
          </List>
          {report.failed.length > 0 && (
            <Table.ScrollContainer minWidth={360} mah={240}>
              <Table data-testid="issue-failures">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Person</Table.Th>
                    <Table.Th>Why</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.failed.map((f) => (
                    <Table.Tr key={f.person}>
                      <Table.Td title={f.person}>{nameOf.get(f.person) ?? f.person}</Table.Td>
                      <Table.Td>{f.reason}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Select
            label="Course"
            data={courseOptions(courses.data?.courses ?? [])}
            value={course}
            onChange={setCourse}
            searchable
            placeholder="Pick a course"
          />
          {reading && <Text size="sm">Reading who completed the course…</Text>}
          {completers.error && (
            <Alert color="red" title="Completions could not be read">
              {errorMessage(completers.error)}
            </Alert>
          )}
          {completers.data && !reading && (
            <>
              <Text size="sm" data-testid="issue-summary">
                {plural(people.length, 'person', 'people')} completed the course;{' '}
                {formatCount(people.length - toIssue.length)} already{' '}
                {people.length - toIssue.length === 1 ? 'holds' : 'hold'} the badge. It will be issued to{' '}
                {formatCount(toIssue.length)}.
              </Text>
              {people.length > 0 && (
                <Table.ScrollContainer minWidth={360} mah={260}>
                  <Table striped stickyHeader data-testid="issue-completers">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Person</Table.Th>
                        <Table.Th>Completed</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {people.map((p) => (
                        <Table.Tr key={p.username}>
                          <Table.Td>
                            <Anchor
                              href={`#/people-and-access/users/${p.userId}`}
                              size="sm"
                              title={`${p.username}${p.email ? ` (${p.email})` : ''}`}
                            >
                              {p.name ?? p.username}
                              {p.name && (
                                // Two people of one name are told apart by their usernames.
                                <Text span size="xs" c="dimmed" data-testid="completer-username">
                                  {' '}
                                  · {p.username}
                                </Text>
                              )}
                            </Anchor>
                          </Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>
                            {p.completedAt ? formatDate(p.completedAt) : '—'}
                          </Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>
                            {holds(p) && (
                              <Pill color="gray" variant="light">
                                Already has it
                              </Pill>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </>
          )}
          {issue.isError && (
            <Alert color="red" title="Not issued" role="alert">
              {errorMessage(issue.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              disabled={!toIssue.length || reading}
              loading={issue.isPending}
              onClick={() => {
                setSent(true);
                void issue.mutateAsync({ badge: badge.id, people: toIssue }).then(
                  (result) => {
                    // Those the preview left out as holding it already count as already held too.
                    const leftOut = people.filter(holds).map((p) => p.username);
                    setReport({ ...result, already: [...leftOut, ...result.already] });
                  },
                  () => setSent(false),
                );
              }}
            >
              Issue to {plural(toIssue.length, 'person', 'people')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function RevokeModal({ target, onClose }: { target: BadgeAssertion | null; onClose(): void }) {
  const [reason, setReason] = useState('');
  const revoke = useMutationCall('badges.revoke');
  function close() {
    setReason('');
    revoke.reset();
    onClose();
  }
  return (
    <Modal opened={target !== null} onClose={close} title="Revoke the badge">
      {target && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            revoke.mutate({ assertion: target.id, reason }, { onSuccess: close });
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{target.username} keeps the record of it, marked revoked, with the reason below.</Text>
            <Textarea
              label="Reason"
              required
              data-autofocus
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            {revoke.isError && (
              <Alert color="red" title="Not revoked" role="alert">
                {errorMessage(revoke.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={!reason.trim()} loading={revoke.isPending}>
                Revoke
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
