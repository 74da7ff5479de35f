/**
 * A mentor's "Sharing" tab: its shareable link (create, copy its token, revoke after asking), what the platform's
 * public check tells anyone about that link, and forking the mentor into a new one.
 */
import {
  Badge,
  Button,
  CopyButton,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import type { Mentor, MentorSharing } from '../../../shared/contract';
import { ConfirmModal } from '../../components/ConfirmModal';
import { CopyIcon, ForkIcon, PlusIcon, TrashIcon } from '../../components/icons';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { notifyError, notifySuccess } from '../../components/notify';
import { formatDateTime } from '../../lib/format';
import { useCall, useMutationCall } from '../../queries/useCall';
import type { MentorTarget } from '../../train/TrainFlowContext';
import { ForkMentorModal } from './ForkMentorModal';

export function SharingPanel({ mentor, details }: { mentor: MentorTarget; details: Mentor }) {
  const input = { profileId: mentor.profileId, mentor: mentor.uniqueId };
  const sharing = useCall('mentors.sharing', input);
  const share = useMutationCall('mentors.share');
  const unshare = useMutationCall('mentors.unshare');
  const [revoking, setRevoking] = useState<MentorTarget | null>(null);
  const [forking, setForking] = useState(false);
  const writeRefusal = useWriteRefusal();

  return (
    <Stack gap="lg" data-testid="mentor-sharing">
      <Paper withBorder radius="md" p="md" component="section" aria-label="Shareable link">
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4">
              Shareable link
            </Title>
            <Text size="sm" c="dimmed">
              A link with a secret token: whoever you give the token to can open this mentor. Revoking it makes the
              token stop working.
            </Text>
          </div>
          {sharing.isPending && <Skeleton height={36} radius="sm" />}
          {sharing.isError && (
            <LoadErrorAlert
              title="The shareable link could not be read"
              error={sharing.error}
              onRetry={() => void sharing.refetch()}
            />
          )}
          {sharing.data && !sharing.data.link && (
            <Group justify="space-between" wrap="wrap">
              <Text size="sm">This mentor has no shareable link.</Text>
              <WriteButton
                refusal={writeRefusal}
                size="sm"
                leftSection={<PlusIcon size={16} />}
                loading={share.isPending}
                onClick={() =>
                  share.mutate(input, {
                    onSuccess: () => notifySuccess('Link created', `${mentor.name} has a shareable link now.`),
                    onError: (error) => notifyError('Link not created', error),
                  })
                }
              >
                Create link
              </WriteButton>
            </Group>
          )}
          {sharing.data?.link && (
            <Stack gap="xs">
              <Group gap="xs" align="flex-end" wrap="nowrap">
                <TextInput
                  label="Token"
                  value={sharing.data.link.token}
                  readOnly
                  style={{ flex: 1, minWidth: 0 }}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  onFocus={(event) => event.currentTarget.select()}
                />
                <CopyButton value={sharing.data.link.token}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? 'Copied' : 'Copy the token'} withArrow>
                      <Button variant="default" leftSection={<CopyIcon size={16} />} onClick={copy}>
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
              <Group justify="space-between" wrap="wrap">
                <Group gap="xs">
                  <Badge variant="light" color={sharing.data.link.enabled ? 'teal' : 'gray'} radius="sm">
                    {sharing.data.link.enabled ? 'On' : 'Off'}
                  </Badge>
                  {sharing.data.link.createdAt && (
                    <Text size="sm" c="dimmed">
                      Created {formatDateTime(sharing.data.link.createdAt)}
                    </Text>
                  )}
                </Group>
                <Group gap="xs">
                  {!sharing.data.link.enabled && (
                    <WriteButton
                      refusal={writeRefusal}
                      size="sm"
                      variant="default"
                      loading={share.isPending}
                      onClick={() =>
                        share.mutate(input, { onError: (error) => notifyError('Link not turned on', error) })
                      }
                    >
                      Turn on
                    </WriteButton>
                  )}
                  <WriteButton
                    refusal={writeRefusal}
                    size="sm"
                    variant="subtle"
                    color="red"
                    leftSection={<TrashIcon size={16} />}
                    onClick={() => setRevoking(mentor)}
                  >
                    Revoke…
                  </WriteButton>
                </Group>
              </Group>
            </Stack>
          )}
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p="md" component="section" aria-label="Public shareable link">
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Title order={2} size="h4">
                Public shareable link
              </Title>
              <Text size="sm" c="dimmed">
                What the platform tells anyone, without signing in, about this mentor’s link: whether it works.
              </Text>
            </div>
            {sharing.isError && <PublicCheckBadge check={{ enabled: null, error: 'not asked' }} />}
            {sharing.data && <PublicCheckBadge check={sharing.data.publicCheck} />}
          </Group>
          {sharing.data?.publicCheck.error && (
            <Text size="sm" c="red">
              {sharing.data.publicCheck.error}
            </Text>
          )}
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p="md" component="section" aria-label="Fork">
        <Group justify="space-between" wrap="wrap" align="flex-start">
          <div style={{ minWidth: 0, flex: 1 }}>
            <Title order={2} size="h4">
              Fork
            </Title>
            <Text size="sm" c="dimmed">
              A new mentor on this tenant made from this one: its settings, and its documents if you choose.
            </Text>
          </div>
          <WriteButton
            refusal={writeRefusal}
            variant="default"
            size="sm"
            leftSection={<ForkIcon size={16} />}
            onClick={() => setForking(true)}
          >
            Fork mentor…
          </WriteButton>
        </Group>
      </Paper>

      <ConfirmModal
        target={revoking}
        title="Revoke the shareable link?"
        mutation={unshare}
        failedTitle="Not revoked"
        confirmLabel="Revoke link"
        onClose={() => setRevoking(null)}
        onConfirm={(target, close) =>
          unshare.mutate(
            { profileId: target.profileId, mentor: target.uniqueId },
            {
              onSuccess: () => {
                notifySuccess('Link revoked', `The token of ${target.name} no longer works.`);
                close();
              },
            },
          )
        }
      >
        {(target) => (
          <>
            <Text>
              Revoke the shareable link of <strong>{target.name}</strong>? Whoever has its token can no longer open the
              mentor.
            </Text>
            <Text size="sm" c="dimmed">
              A link created later has a new token.
            </Text>
          </>
        )}
      </ConfirmModal>
      <ForkMentorModal
        profileId={mentor.profileId}
        mentor={forking ? details : null}
        onClose={() => setForking(false)}
      />
    </Stack>
  );
}

function PublicCheckBadge({ check }: { check: MentorSharing['publicCheck'] }) {
  if (check.error) {
    return (
      <Badge variant="light" color="red" radius="sm">
        Not checked
      </Badge>
    );
  }
  if (check.enabled === null) {
    return (
      <Badge variant="light" color="gray" radius="sm">
        No link
      </Badge>
    );
  }
  return (
    <Badge variant="light" color={check.enabled ? 'teal' : 'yellow'} radius="sm">
      {check.enabled ? 'Link works' : 'Link is off'}
    </Badge>
  );
}
