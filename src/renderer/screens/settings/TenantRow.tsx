import { ActionIcon, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { Profile } from '../../../shared/contract';
import { EditIcon, TrashIcon } from '../../components/icons';
import { useMutationCall } from '../../queries/useCall';
import { keyStatusOf } from '../../tenants/keyStatus';
import { useTenantEditor } from '../../tenants/TenantEditorContext';
import { useSetActiveTenant } from '../../tenants/useSetActiveTenant';
import { TestResultPanel, type TestRun } from './TestResultPanel';

export const TENANT_TABLE_COLUMNS = 3;

/** Mantine badges clip their label, which lets a tight table squeeze them to one letter; they keep their width. */
const FULL_WIDTH_BADGE = { minWidth: 'max-content' } as const;

interface TenantRowProps {
  profile: Profile;
  onRemove(profile: Profile): void;
}

/** One tenant in the table, with its actions; a connection test opens a panel right under it. */
export function TenantRow({ profile, onRemove }: TenantRowProps) {
  const [testRun, setTestRun] = useState<TestRun | null>(null);
  const test = useMutationCall('profiles.test');
  const nameId = `tenant-name-${profile.id}`;

  function runTest() {
    setTestRun({ state: 'running' });
    test.mutate(
      { id: profile.id },
      {
        onSuccess: (result) => setTestRun({ state: 'done', result }),
        onError: (error) => setTestRun({ state: 'failed', error }),
      },
    );
  }

  return (
    <>
      <Table.Tr data-testid={`tenant-row-${profile.name}`}>
        <Table.Td>
          <TenantNameCell profile={profile} nameId={nameId} />
        </Table.Td>
        <Table.Td>
          <Text size="sm" ff="monospace" truncate="end" title={profile.baseUrl}>
            {profile.baseUrl}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {profile.org} · {profile.username} · {profile.authScheme}
          </Text>
        </Table.Td>
        <Table.Td>
          <TenantActions
            profile={profile}
            describedBy={nameId}
            testing={test.isPending}
            onTest={runTest}
            onRemove={() => onRemove(profile)}
          />
        </Table.Td>
      </Table.Tr>
      {testRun && (
        <Table.Tr>
          <Table.Td colSpan={TENANT_TABLE_COLUMNS}>
            <TestResultPanel tenantName={profile.name} run={testRun} onDismiss={() => setTestRun(null)} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

function TenantNameCell({ profile, nameId }: { profile: Profile; nameId: string }) {
  const status = keyStatusOf(profile);
  return (
    <Stack gap={4} align="flex-start">
      <Text id={nameId} size="sm" fw={600}>
        {profile.name}
      </Text>
      <Group gap={4}>
        {profile.isActive && (
          <Badge size="xs" variant="filled" color="teal" style={FULL_WIDTH_BADGE}>
            Active
          </Badge>
        )}
        {profile.isSandbox && (
          <Badge size="xs" variant="light" color="grape" style={FULL_WIDTH_BADGE}>
            Sandbox
          </Badge>
        )}
        {/* Where the key comes from; the key itself never reaches this screen. */}
        <Tooltip label={status.explanation} multiline w={260} withArrow>
          <Badge variant="light" color={status.color} size="xs" radius="sm" style={FULL_WIDTH_BADGE} tabIndex={0}>
            {status.label}
          </Badge>
        </Tooltip>
      </Group>
    </Stack>
  );
}

interface TenantActionsProps {
  profile: Profile;
  /** The id of the name cell, so each button says which tenant it acts on. */
  describedBy: string;
  testing: boolean;
  onTest(): void;
  onRemove(): void;
}

function TenantActions({ profile, describedBy, testing, onTest, onRemove }: TenantActionsProps) {
  const editor = useTenantEditor();
  const { activate, isPending: activating } = useSetActiveTenant();
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <Button size="xs" variant="default" loading={testing} onClick={onTest} aria-describedby={describedBy}>
        Test
      </Button>
      {!profile.isActive && (
        <Button
          size="xs"
          variant="light"
          loading={activating}
          onClick={() => activate(profile)}
          aria-describedby={describedBy}
        >
          Make active
        </Button>
      )}
      <Tooltip label="Edit" withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Edit ${profile.name}`}
          onClick={() => editor.openEdit(profile)}
        >
          <EditIcon />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Remove" withArrow>
        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${profile.name}`} onClick={onRemove}>
          <TrashIcon />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
