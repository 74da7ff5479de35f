/**
 * One badge: its image and criteria, issuing it to the people who completed its course (or another course) or to a
 * CSV file's people, and its holders (the platform's assertions), each linked to the person's page and revocable
 * with a reason.
 */
import { Alert, Badge as Pill, Button, Group, Modal, Select, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import type { Badge, BadgeAssertion } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { NOT_AVAILABLE_OFFLINE } from '../../components/FreshnessBar';
import { isUnreachable } from '../../components/nextStep';
import { notifySuccess } from '../../components/notify';
import { formatCount, formatDate, formatDateTime, plural } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import { ImagePreview } from '../../resources/fields/ImageField';
import { WriteButton, writeRefusalOf } from '../../resources/writeGate';
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
  const standing = assertions.data?.assertions.filter((a) => !a.revoked).length;
  return (
    <Stack gap="sm" data-testid="badge-detail">
      <Group align="flex-start" wrap="nowrap">
        <ImagePreview value={badge.image} label={`${badge.name} image`} size={64} />
        <Stack gap={2} style={{ minWidth: 0 }}>
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
      </Group>
      <Group>
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
    </Stack>
  );
}

/** Courses by their names; the id only where two share a name (the picker's labels must tell them apart). */
function courseOptions(courses: readonly { id: string; name: string }[]) {
  const count = new Map<string, number>();
  for (const c of courses) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  return courses.map((c) => ({ value: c.id, label: (count.get(c.name) ?? 0) > 1 ? `${c.name} (${c.id})` : c.name }));
}

/** Reads who completed the course, says how many hold the badge already, and issues it to the rest in bulk. */
function IssueModal({ badge, opened, onClose }: { badge: Badge; opened: boolean; onClose(): void }) {
  const [course, setCourse] = useState<string | null>(badge.course);
  const courses = useCall('invitations.courses', {}, { enabled: opened });
  const completers = useCall('badges.completers', { course: course ?? '' }, { enabled: opened && !!course });
  const assertions = useCall('badges.assertions', { badge: badge.id }, { enabled: opened });
  const issue = useMutationCall('badges.issue');
  const holders = new Set((assertions.data?.assertions ?? []).filter((a) => !a.revoked).map((a) => a.username));
  const people = (completers.data?.completers ?? []).map((c) => c.username);
  const toIssue = people.filter((p) => !holders.has(p));
  function close() {
    issue.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={`Issue “${badge.name}”`} size="lg">
      <Stack gap="sm">
        <Select
          label="Course"
          data={courseOptions(courses.data?.courses ?? [])}
          value={course}
          onChange={setCourse}
          searchable
          placeholder="Pick a course"
        />
        {completers.isFetching && <Text size="sm">Reading who completed the course…</Text>}
        {completers.error && (
          <Alert color="red" title="Completions could not be read">
            {errorMessage(completers.error)}
          </Alert>
        )}
        {completers.data && !completers.isFetching && (
          <Text size="sm" data-testid="issue-summary">
            {plural(people.length, 'person', 'people')} completed the course;{' '}
            {formatCount(people.length - toIssue.length)} already{' '}
            {people.length - toIssue.length === 1 ? 'holds' : 'hold'} the badge. It will be issued to{' '}
            {formatCount(toIssue.length)}.
          </Text>
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
            disabled={!toIssue.length || completers.isFetching}
            loading={issue.isPending}
            onClick={() =>
              issue.mutate(
                { badge: badge.id, people: toIssue },
                {
                  onSuccess: (result) => {
                    notifySuccess(
                      'Badge issued',
                      `${badge.name}: issued to ${formatCount(result.issued.length)}, skipped ${formatCount(result.skipped.length)}`,
                    );
                    close();
                  },
                },
              )
            }
          >
            Issue to {formatCount(toIssue.length)}
          </Button>
        </Group>
      </Stack>
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
