/**
 * A mentor's settings (kind `mentor-settings`): every field of the spec's settings request in its group, edited in
 * place and saved as one change (what the platform refuses is shown at its field), a model the platform no longer
 * offers flagged, and the history of every save beside it.
 */
import {
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import type { ResourceRecord } from '../../../shared/contract';
import {
  fieldValue,
  MENTOR_SETTINGS_GROUPS,
  RESOURCES,
  writtenValue,
  type FieldDeclaration,
} from '../../../shared/resources';
import { FreshnessNote, OfflineBanner } from '../../components/FreshnessBar';
import { SectionLoadError, SectionReach } from '../../components/SectionReach';
import { WarningIcon } from '../../components/icons';
import { useCall, useCallKey, useMutationCall } from '../../queries/useCall';
import { FieldInput } from '../../resources/fields/FieldInput';
import { useResourceForm } from '../../resources/fields/useResourceForm';
import { initialValue, type FormValue, type FormValues } from '../../resources/fields/values';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { useBridge } from '../../bridge/BridgeContext';
import { keepDraft, keptDraft, rebaseDraft, type Draft } from '../../lib/drafts';
import type { MentorTarget } from '../../train/TrainFlowContext';
import classes from './MentorSettingsPanel.module.css';
import { ABILITIES } from './MentorToolsPanel';
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

export function MentorSettingsPanel({
  mentor,
  onOpenKnowledge,
}: {
  mentor: MentorTarget;
  /** Opens the mentor's Knowledge tab, where its tools are chosen. */
  onOpenKnowledge?: () => void;
}) {
  const input = { profileId: mentor.profileId, kind: KIND, key: mentor.uniqueId };
  const query = useCall('resources.getSingle', input);
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  const [refreshing, setRefreshing] = useState(false);
  const [saved, setSaved] = useState(false);
  const record = query.data?.record;
  // The saved copy, or a tenant the engine knows is out of reach: Save settings and Revert wait, and say why.
  const refusal = useWriteRefusal(query.data?.freshness);

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
    <SectionReach what="this mentor's settings">
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
          <SectionLoadError
            section="mentor-settings"
            title="The settings could not be loaded"
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        )}
        {record && (
          <SettingsForm
            mentor={mentor}
            record={record}
            saved={saved}
            onSaved={setSaved}
            onOpenKnowledge={onOpenKnowledge}
            refusal={refusal}
          />
        )}
        {record && <MentorSettingsHistory mentor={mentor} refusal={refusal} />}
      </Stack>
    </SectionReach>
  );
}

function SettingsForm({
  mentor,
  record,
  saved,
  onSaved,
  onOpenKnowledge,
  refusal,
}: {
  mentor: MentorTarget;
  record: ResourceRecord;
  /** The last save worked (said until the next change). */
  saved: boolean;
  onSaved(saved: boolean): void;
  /** Opens the mentor's Knowledge tab, where its tools are chosen. */
  onOpenKnowledge?: (() => void) | undefined;
  /** Why saving is off now (the tenant cannot be reached), or null: editing goes on, the save waits. */
  refusal: string | null;
}) {
  const current = useMemo(() => editable(record), [record]);
  const { form, ruleOf, formatOf, bodyOf, showError } = useResourceForm({
    declaration,
    operation: declaration.operations.update,
    mode: 'update',
    fields: declaration.fields,
    record: current,
  });
  const scope = useMemo(
    () => ({ profileId: mentor.profileId, kind: KIND, key: mentor.uniqueId }),
    [mentor.profileId, mentor.uniqueId],
  );
  /** The values the form's edits were made against: the record last answered (null until the form has started). */
  const against = useRef<FormValues | null>(null);
  /** How many records the form has started from: a save tells whether the platform's answer came before it ended. */
  const started = useRef(0);
  /** Settings the admin edited that the platform changed meanwhile to something else: saving replaces them. */
  const [changedMeanwhile, setChangedMeanwhile] = useState<string[]>([]);
  /**
   * The form from the record's values, with the draft's edits on top; only edited fields are kept, so a change made
   * elsewhere to any other field is not undone.
   */
  function startFrom(fresh: FormValues, draft: Draft<FormValues> | undefined) {
    const rebased = draft ? rebaseDraft(draft, fresh) : null;
    against.current = fresh;
    started.current += 1;
    form.setInitialValues(fresh);
    form.reset();
    for (const name of rebased?.edited ?? []) form.setFieldValue(name, rebased!.values[name] as FormValue);
    setChangedMeanwhile((was) =>
      rebased ? [...new Set([...was.filter((name) => rebased.edited.includes(name)), ...rebased.conflicts])] : [],
    );
  }
  // A new record (a save, a revert, a change made elsewhere) starts the form again with the edits made here on top;
  // the first one, with the edits left behind when the admin last went elsewhere in the app.
  useEffect(() => {
    startFrom(
      formValues(current),
      against.current ? { base: against.current, values: form.getValues() } : keptDraft<Draft<FormValues>>(scope),
    );
    // The form object is stable; only a new record starts it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);
  // Leaving (another screen, tab or tenant) keeps what is unsaved for this tenant's mentor; nothing unsaved, no draft.
  useEffect(
    () => () => {
      keepDraft(scope, against.current && form.isDirty() ? { base: against.current, values: form.getValues() } : null);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [scope],
  );
  const [formError, setFormError] = useState<string | null>(null);
  function discard() {
    form.reset();
    setChangedMeanwhile([]);
    setFormError(null);
  }
  const save = useMutationCall('resources.updateSingle');
  const llms = useCall('resources.list', { profileId: mentor.profileId, kind: 'mentor-llms', pageSize: 500 });
  const offered = useMemo(() => offeredModels(llms.data?.records ?? []), [llms.data]);
  const values = form.getValues();
  const offer = llms.data
    ? modelOffer(offered, String(values.llm_provider ?? ''), String(values.llm_name ?? ''))
    : null;
  const dirty = form.isDirty();
  const sticky = dirty || saved || formError !== null || save.isPending;
  const bar = useRef<HTMLDivElement>(null);
  const barHeight = useBorderBoxHeight(bar, sticky);

  function submit(values: FormValues) {
    // Enter in a field submits too: nothing is sent while the button says why not.
    if (refusal) return;
    setFormError(null);
    onSaved(false);
    const changed = bodyOf(values, true);
    if (Object.keys(changed).length === 0) {
      setFormError('Nothing changed.');
      return;
    }
    const startedBefore = started.current;
    save.mutate(
      { profileId: mentor.profileId, kind: KIND, key: mentor.uniqueId, values: changed },
      {
        // The mentor's page and list read again on the engine's mentors.changed (declared in the contract). What was
        // saved is no longer an edit, even where the platform answers it in its own form (or not at all): the record
        // read after the save starts the form, whether it came before this answer or comes after it.
        onSuccess: () => {
          if (started.current !== startedBefore) {
            startFrom(against.current!, { base: values, values: form.getValues() });
          } else {
            against.current = values;
          }
          setChangedMeanwhile([]);
          onSaved(true);
        },
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
          description: 'Not known until saved here.',
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
    <form
      // Bound when submitted: the save reads the refs of what the form started from.
      onSubmit={(event) => form.onSubmit(submit)(event)}
      noValidate
      aria-label="Mentor settings"
      className={classes.form}
      style={{ '--save-bar-space': `${barHeight}px` } as CSSProperties}
      onFocus={(event) => clearOfBars(event.target, bar.current)}
    >
      <Stack gap="md">
        {unread.size > 0 && (
          // Said once here; each such field says only "Not known until saved here."
          <Text size="sm" c="dimmed" data-testid="settings-unread-note">
            {unread.size === 1 ? 'One setting is' : `${unread.size} settings are`} not read back from the tenant: each
            shows its value here once it has been saved from this app.
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
              <Text size="sm" c="dimmed" mb="sm" data-testid="tools-elsewhere">
                Tools, image generation, web browsing, code interpreter and MCP servers are chosen on the{' '}
                {onOpenKnowledge ? (
                  <Anchor component="button" type="button" size="sm" onClick={onOpenKnowledge}>
                    Knowledge tab
                  </Anchor>
                ) : (
                  'Knowledge tab'
                )}
                .
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
          ref={bar}
          data-testid="settings-save-bar"
          // Kept in view only once there is something to save or say: untouched, it waits at the form's end and leaves
          // a small window's height to the fields.
          style={{
            position: sticky ? 'sticky' : 'static',
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
            {dirty && changedMeanwhile.length > 0 && (
              <Alert color="yellow" icon={<WarningIcon />} data-testid="settings-changed-meanwhile">
                Changed on the platform since you edited {changedMeanwhile.length === 1 ? 'it' : 'them'}:{' '}
                {changedMeanwhile.map((name) => labelOf(name)).join(', ')}. Saving replaces the platform’s{' '}
                {changedMeanwhile.length === 1 ? 'value' : 'values'} with yours; Discard changes shows the platform’s.
              </Alert>
            )}
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="dimmed" aria-live="polite">
                {dirty ? 'Unsaved changes.' : saved ? 'Saved.' : 'No changes.'}
              </Text>
              <Group gap="sm">
                <Button variant="default" disabled={!dirty || save.isPending} onClick={discard}>
                  Discard changes
                </Button>
                {/* Off with its reason even when nothing changed: a disabled button would not show the tooltip. */}
                <WriteButton type="submit" refusal={refusal} disabled={!refusal && !dirty} loading={save.isPending}>
                  Save settings
                </WriteButton>
              </Group>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    </form>
  );
}

/**
 * Settings this form does not show: the tools, built-in abilities and MCP servers, chosen on the Knowledge tab (saved through
 * these same settings), and `is_featured`, which the spec's request takes beside `featured` — the Featured switch
 * shows the value the platform reads back as `is_featured` and saves it as `featured`.
 */
const EDITED_ELSEWHERE = new Set([
  'can_use_tools',
  'tool_slugs',
  'mcp_servers',
  'is_featured',
  ...ABILITIES.map((ability) => ability.name),
]);

/** The form's values of a record, as its inputs hold them. */
const formValues = (record: ResourceRecord): FormValues =>
  Object.fromEntries(declaration.fields.map((field) => [field.name, initialValue(field, record)]));

/**
 * A field the focus reached, brought fully into view within its scroll margins (the header's and the save bar's
 * heights). Chromium scrolls a focused single-line input that way itself, but for a textarea or a JSON editor only
 * its caret, which left their lower part under the sticky save bar.
 */
function clearOfBars(target: HTMLElement, bar: HTMLElement | null) {
  if (bar?.contains(target)) return;
  // After the browser's own scrolling for the focus.
  requestAnimationFrame(() => target.scrollIntoView({ block: 'nearest' }));
}

/** The element's height, borders included, while `watching` (0 otherwise): followed as it changes. */
function useBorderBoxHeight(ref: RefObject<HTMLElement | null>, watching: boolean): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!watching || !element) {
      setHeight(0);
      return;
    }
    const observer = new ResizeObserver(([entry]) => setHeight(entry?.borderBoxSize[0]?.blockSize ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, watching]);
  return height;
}

const labelOf = (name: string) => declaration.fields.find((field) => field.name === name)?.label ?? name;

const sectionId = (group: string) => `mentor-settings-${group.toLowerCase().replace(/\W+/g, '-')}`;

/** Long texts and JSON take the whole row. */
const wide = (field: FieldDeclaration) => field.input === 'textarea' || field.input === 'json';
