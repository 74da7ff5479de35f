/**
 * A mentor's settings (kind `mentor-settings`): every field of the spec's settings request in its group, edited in
 * place and saved as one change (what the platform refuses is shown at its field), a model the platform no longer
 * offers flagged, and the history of every save beside it.
 */
import { Alert, Autocomplete, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { ResourceRecord } from '../../../shared/contract';
import {
  fieldValue,
  MENTOR_SETTINGS_GROUPS,
  RESOURCES,
  writtenValue,
  type FieldDeclaration,
} from '../../../shared/resources';
import { FreshnessNote, OfflineBanner } from '../../components/FreshnessBar';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { WarningIcon } from '../../components/icons';
import { useCall, useCallKey, useMutationCall } from '../../queries/useCall';
import { FieldInput } from '../../resources/fields/FieldInput';
import { useResourceForm } from '../../resources/fields/useResourceForm';
import { initialValue, type FormValues } from '../../resources/fields/values';
import { useBridge } from '../../bridge/BridgeContext';
import type { MentorTarget } from '../../train/TrainFlowContext';
import { MentorSettingsHistory } from './MentorSettingsHistory';
import { modelOffer, offeredModels } from './modelOffer';

const declaration = RESOURCES['mentor-settings'];
const KIND = 'mentor-settings' as const;

/** The record as the form edits it: each field under its request name, in the shape the update takes. */
function editable(record: ResourceRecord): ResourceRecord {
  return Object.fromEntries(
    declaration.fields.map((field) => [field.name, writtenValue(declaration, field, fieldValue(field, record))]),
  );
}

export function MentorSettingsPanel({ mentor }: { mentor: MentorTarget }) {
  const input = { profileId: mentor.profileId, kind: KIND, key: mentor.uniqueId };
  const query = useCall('resources.getSingle', input);
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  const [refreshing, setRefreshing] = useState(false);
  const [saved, setSaved] = useState(false);
  const record = query.data?.record;

  // The platform's answer is this panel's record: it replaces the cached one (this tenant's, this mentor's) at once.
  async function refresh() {
    setRefreshing(true);
    try {
      const fresh = await bridge.call('resources.getSingle', { ...input, refresh: true });
      queryClient.setQueryData(callKey('resources.getSingle', input), fresh);
    } finally {
      setRefreshing(false);
    }
  }

  return (
    <Stack gap="md" data-testid="mentor-settings">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 320px' }}>
          Every setting the platform takes for this mentor. Saving keeps a snapshot here, so any save can be compared
          and undone.
        </Text>
        <FreshnessNote
          freshness={query.data?.freshness}
          refreshing={refreshing || query.isFetching}
          onRefresh={() => void refresh()}
          what="the settings"
        />
      </Group>
      <OfflineBanner freshness={query.data?.freshness} />
      {query.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the settings">
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} height={36} radius="sm" />
          ))}
        </Stack>
      )}
      {query.isError && (
        <LoadErrorAlert
          title="The settings could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      )}
      {record && <SettingsForm mentor={mentor} record={record} saved={saved} onSaved={setSaved} />}
      {record && <MentorSettingsHistory mentor={mentor} />}
    </Stack>
  );
}

function SettingsForm({
  mentor,
  record,
  saved,
  onSaved,
}: {
  mentor: MentorTarget;
  record: ResourceRecord;
  /** The last save worked (said until the next change). */
  saved: boolean;
  onSaved(saved: boolean): void;
}) {
  const current = useMemo(() => editable(record), [record]);
  const { form, ruleOf, formatOf, bodyOf, showError } = useResourceForm({
    declaration,
    operation: declaration.operations.update,
    mode: 'update',
    fields: declaration.fields,
    record: current,
  });
  // A new record (after a save or a revert) starts the form again from what the platform answered.
  useEffect(() => {
    form.setInitialValues(
      Object.fromEntries(declaration.fields.map((field) => [field.name, initialValue(field, current)])),
    );
    form.reset();
    // The form object is stable; only a new record starts it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);
  const [formError, setFormError] = useState<string | null>(null);
  const save = useMutationCall('resources.updateSingle');
  const llms = useCall('resources.list', { profileId: mentor.profileId, kind: 'mentor-llms', pageSize: 500 });
  const offered = useMemo(() => offeredModels(llms.data?.records ?? []), [llms.data]);
  const values = form.getValues();
  const offer = llms.data
    ? modelOffer(offered, String(values.llm_provider ?? ''), String(values.llm_name ?? ''))
    : null;
  const dirty = form.isDirty();

  function submit(values: FormValues) {
    setFormError(null);
    onSaved(false);
    const changed = bodyOf(values, true);
    if (Object.keys(changed).length === 0) {
      setFormError('Nothing changed.');
      return;
    }
    save.mutate(
      { profileId: mentor.profileId, kind: KIND, key: mentor.uniqueId, values: changed },
      {
        // The mentor's page and list read again on the engine's mentors.changed (declared in the contract).
        onSuccess: () => onSaved(true),
        onError: (error) => setFormError(showError(error)),
      },
    );
  }

  /** Fields the platform's settings read does not answer (until a save here answers them), said at the field. */
  const unread = useMemo(
    () =>
      new Set(
        declaration.fields
          .filter((field) => !EDITED_ELSEWHERE.has(field.name) && fieldValue(field, record) === undefined)
          .map((f) => f.name),
      ),
    [record],
  );
  const input = (declared: FieldDeclaration) => {
    const field = unread.has(declared.name)
      ? {
          ...declared,
          description: 'Not read from the platform.',
        }
      : declared;
    if (field.name === 'llm_provider' || field.name === 'llm_name') {
      // Free text as the spec allows, with what the platform offers suggested.
      const data =
        field.name === 'llm_provider' ? [...offered.keys()] : [...(offered.get(String(values.llm_provider)) ?? [])];
      return (
        <Autocomplete
          key={field.name}
          label={field.label}
          data={data}
          {...form.getInputProps(field.name)}
          data-field={field.name}
        />
      );
    }
    return (
      <div key={field.name} data-field={field.name} style={wide(field) ? { gridColumn: '1 / -1' } : undefined}>
        <FieldInput
          profileId={mentor.profileId}
          field={field}
          form={form}
          rule={ruleOf(field)}
          format={formatOf(field)}
          current={current[field.name]}
          editing
        />
      </div>
    );
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Mentor settings">
      <Stack gap="md">
        {unread.size > 0 && (
          // Said once here; each such field says only "Not read from the platform."
          <Text size="sm" c="dimmed" data-testid="settings-unread-note">
            {unread.size === 1 ? 'One setting is' : `${unread.size} settings are`} not returned when the platform’s
            settings are read: each shows its value here once it has been saved from this app.
          </Text>
        )}
        <Group gap={6} aria-label="Setting groups" role="navigation">
          {MENTOR_SETTINGS_GROUPS.map((group) => (
            <Button
              key={group}
              size="compact-sm"
              variant="light"
              color="gray"
              onClick={() => {
                const section = document.getElementById(sectionId(group));
                section?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                // The keyboard follows to the group (its heading), without opening any of its inputs.
                section?.focus({ preventScroll: true });
              }}
            >
              {group}
            </Button>
          ))}
        </Group>
        {MENTOR_SETTINGS_GROUPS.map((group) => (
          <Paper
            key={group}
            id={sectionId(group)}
            withBorder
            radius="md"
            p="md"
            component="section"
            aria-label={group}
            tabIndex={-1}
            // Clear of the app's header when scrolled to.
            // Groups out of sight are laid out and painted only when scrolled to (seventy-odd fields).
            style={{ scrollMarginTop: 80, contentVisibility: 'auto', containIntrinsicSize: 'auto 480px' }}
          >
            <Title order={3} size="h5" mb="sm">
              {group}
            </Title>
            {group === 'Model and provider' && offer && offer.status !== 'offered' && (
              <Alert color="orange" icon={<WarningIcon />} mb="sm" data-testid="model-not-offered">
                {offer.message}
              </Alert>
            )}
            {group === 'Other' && (
              <Text size="sm" c="dimmed" mb="sm">
                Tools and MCP servers are chosen on the Knowledge tab.
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="sm">
              {declaration.fields
                .filter((field) => field.group === group && !EDITED_ELSEWHERE.has(field.name))
                .map(input)}
            </SimpleGrid>
          </Paper>
        ))}
        <Paper
          withBorder
          radius="md"
          p="sm"
          data-testid="settings-save-bar"
          // Kept in view only once there is something to save or say: untouched, it waits at the form's end and leaves
          // a small window's height to the fields.
          style={{
            position: dirty || saved || formError || save.isPending ? 'sticky' : 'static',
            bottom: 0,
            zIndex: 2,
            background: 'var(--mantine-color-body)',
          }}
        >
          <Stack gap="xs">
            {formError && (
              <Alert color="red" title="Not saved" icon={<WarningIcon />} style={{ whiteSpace: 'pre-line' }}>
                {formError}
              </Alert>
            )}
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="dimmed" aria-live="polite">
                {dirty ? 'Unsaved changes.' : saved ? 'Saved.' : 'No changes.'}
              </Text>
              <Group gap="sm">
                <Button variant="default" disabled={!dirty || save.isPending} onClick={() => form.reset()}>
                  Discard changes
                </Button>
                <Button type="submit" disabled={!dirty} loading={save.isPending}>
                  Save settings
                </Button>
              </Group>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    </form>
  );
}

/**
 * Settings this form does not show: the tools and MCP servers, chosen on the Knowledge tab as checklists (saved through
 * these same settings), and `is_featured`, which the spec's request takes beside `featured` — the Featured switch
 * shows the value the platform reads back as `is_featured` and saves it as `featured`.
 */
const EDITED_ELSEWHERE = new Set(['can_use_tools', 'tool_slugs', 'mcp_servers', 'is_featured']);

const sectionId = (group: string) => `mentor-settings-${group.toLowerCase().replace(/\W+/g, '-')}`;

/** Long texts and JSON take the whole row. */
const wide = (field: FieldDeclaration) => field.input === 'textarea' || field.input === 'json';
