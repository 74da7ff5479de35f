/**
 * The tools a mentor uses: the tools the platform offers it (`available-tools`) as a checklist, saved as its
 * settings' `tool_slugs` with `can_use_tools` (so each save is in the settings' history), and the MCP servers its
 * settings link, when the platform's answer names them.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import type { ResourceRecord } from '../../../shared/contract';
import { fieldValue, RESOURCES } from '../../../shared/resources';
import { FreshnessNote } from '../../components/FreshnessBar';
import { SectionLoadError } from '../../components/SectionReach';
import { WarningIcon } from '../../components/icons';
import { useCall, useMutationCall } from '../../queries/useCall';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { useTenantReach } from '../../tenants/useTenantReach';
import type { MentorTarget } from '../../train/TrainFlowContext';

interface Tool {
  slug?: string;
  name: string;
  display_name?: string;
  description?: string | null;
  category?: { name?: string } | null;
}

/** The settings' own switches for built-in abilities: chosen here, beside the tools, and nowhere else. */
export const ABILITIES = [
  { name: 'enable_image_generation', label: 'Image generation' },
  { name: 'enable_web_browsing', label: 'Web browsing' },
  { name: 'enable_code_interpreter', label: 'Code interpreter' },
] as const;
type Ability = (typeof ABILITIES)[number]['name'];

const settingsField = (name: string) => RESOURCES['mentor-settings'].fields.find((field) => field.name === name)!;

/** The slugs the mentor's settings enable (the read answers them as `mentor_tools`). */
export function enabledSlugs(record: ResourceRecord | undefined): string[] {
  const value = record ? fieldValue(settingsField('tool_slugs'), record) : undefined;
  return Array.isArray(value) ? value.filter((slug): slug is string => typeof slug === 'string') : [];
}

/** The MCP servers the settings answer names (objects in MentorSettings), by id and name. */
function linkedServers(record: ResourceRecord | undefined): { id: string; name: string }[] {
  const value = record?.mcp_servers;
  if (!Array.isArray(value)) return [];
  return value.map((server) =>
    server && typeof server === 'object'
      ? { id: String((server as { id?: unknown }).id), name: String((server as { name?: unknown }).name ?? '') }
      : { id: String(server), name: '' },
  );
}

export function MentorToolsPanel({ mentor }: { mentor: MentorTarget }) {
  const settingsInput = { profileId: mentor.profileId, kind: 'mentor-settings' as const, key: mentor.uniqueId };
  const settings = useCall('resources.getSingle', settingsInput);
  const tools = useCall('resources.getSingle', { ...settingsInput, kind: 'available-tools' as const });
  const save = useMutationCall('resources.updateSingle');
  const record = settings.data?.record;
  const current = useMemo(() => enabledSlugs(record), [record]);
  const currentOn = record?.can_use_tools === true;
  // What the admin changed, until saved or discarded; otherwise as the platform has it.
  type Draft = {
    chosen?: string[];
    canUse?: boolean;
    servers?: string[];
    abilities?: Partial<Record<Ability, boolean>>;
  };
  const [draft, setDraft] = useState<Draft | null>(null);
  const chosen = draft?.chosen ?? current;
  const canUse = draft?.canUse ?? currentOn;
  const change = (next: Draft) => setDraft((was) => ({ ...was, ...next }));
  const abilityOf = (name: Ability) => draft?.abilities?.[name] ?? record?.[name] === true;
  const setChosen = (next: string[]) => change({ chosen: next });
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const mcp = useCall('resources.list', { profileId: mentor.profileId, kind: 'mcp-servers', pageSize: 500 });
  const writeRefusal = useWriteRefusal(settings.data?.freshness ?? tools.data?.freshness);
  // Out of reach, what the tenant offers cannot be read: the saved settings say which tools are on (a saved copy),
  // rather than a placeholder that waits for an answer that is not coming.
  const unreachable = useTenantReach(mentor.profileId).unreachable;
  const savedOnly = !tools.data && !!record && (tools.isError || unreachable);

  const offered = (Array.isArray(tools.data?.record.value) ? tools.data.record.value : []) as Tool[];
  // Enabled slugs the platform no longer offers this mentor: kept unless unticked, and said.
  const gone = chosen.filter((slug) => !offered.some((tool) => tool.slug === slug));
  // The settings' read does not answer the linked MCP servers; their save's answer does (kept from then on).
  const linkedKnown = Array.isArray(record?.mcp_servers);
  const linked = useMemo(() => linkedServers(record).map((server) => server.id), [record]);
  const servers = draft?.servers ?? linked;
  const same = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();
  const abilitiesChanged = ABILITIES.filter(
    ({ name }) => draft?.abilities?.[name] !== undefined && draft.abilities[name] !== (record?.[name] === true),
  );
  const dirty =
    canUse !== currentOn ||
    !same(chosen, current) ||
    (draft?.servers !== undefined && !same(servers, linked)) ||
    abilitiesChanged.length > 0;

  function submit() {
    setNote(null);
    save.mutate(
      {
        ...settingsInput,
        values: {
          can_use_tools: canUse,
          tool_slugs: chosen,
          // Sent only when changed here: an unread link is not overwritten by an untouched checklist.
          ...(draft?.servers !== undefined && { mcp_servers: draft.servers.map(Number) }),
          ...Object.fromEntries(abilitiesChanged.map(({ name }) => [name, abilityOf(name)])),
        },
      },
      {
        onSuccess: () => {
          setDraft(null);
          setNote({ ok: true, text: 'Saved.' });
        },
        onError: (error) => setNote({ ok: false, text: error.message }),
      },
    );
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Tools">
      <Group justify="space-between" align="flex-start" mb="xs" wrap="wrap" gap="xs">
        <div style={{ flex: '1 1 280px' }}>
          <Title order={2} size="h4">
            Tools
          </Title>
          <Text size="sm" c="dimmed">
            What this mentor may call while it answers. Saved with its settings, so each change is in their history.
          </Text>
        </div>
        <FreshnessNote
          freshness={tools.data?.freshness}
          refreshing={tools.isFetching}
          onRefresh={() => void tools.refetch()}
          what="the tools"
        />
      </Group>
      {((tools.isPending && !savedOnly) || settings.isPending) && !(unreachable && settings.isError) && (
        <Skeleton height={120} radius="sm" />
      )}
      {tools.isError && !savedOnly && (
        <SectionLoadError
          section="tools"
          title="The tools could not be loaded"
          error={tools.error}
          onRetry={() => void tools.refetch()}
        />
      )}
      {settings.isError && (
        <SectionLoadError
          section="tools-settings"
          title="The mentor's settings could not be loaded"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      )}
      {savedOnly && (
        <Stack gap={4} data-testid="tools-saved-copy">
          <Text size="sm">
            {currentOn ? 'This mentor can use tools.' : 'This mentor cannot use tools.'}{' '}
            {current.length > 0 ? `Enabled: ${current.join(', ')}.` : 'No tool is enabled.'}
          </Text>
          <Text size="xs" c="dimmed">
            Saved copy of its settings. The tools the tenant offers appear once it can be reached.
          </Text>
        </Stack>
      )}
      {tools.data && record && (
        <Stack gap="sm">
          <Switch
            label="This mentor can use tools"
            checked={canUse}
            onChange={(event) => change({ canUse: event.currentTarget.checked })}
          />
          {offered.length === 0 && (
            <Text size="sm" c="dimmed">
              The platform offers this mentor no tools.
            </Text>
          )}
          <Checkbox.Group value={chosen} onChange={setChosen} label="Enabled tools">
            <Stack gap={8} mt={6}>
              {offered.map((tool) => (
                <Checkbox
                  key={tool.slug ?? tool.name}
                  value={tool.slug ?? tool.name}
                  data-tool={tool.slug}
                  label={
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={500}>
                        {tool.display_name || tool.name}
                      </Text>
                      {tool.category?.name && (
                        <Badge size="xs" variant="light" color="gray" radius="sm">
                          {tool.category.name}
                        </Badge>
                      )}
                    </Group>
                  }
                  description={tool.description ?? undefined}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {gone.length > 0 && (
            <Alert color="orange" icon={<WarningIcon />} data-testid="tools-not-offered">
              Enabled but no longer offered to this mentor: {gone.join(', ')}. Untick to remove.
              {gone.map((slug) => (
                <Button
                  key={slug}
                  size="compact-xs"
                  variant="subtle"
                  ml={4}
                  onClick={() => setChosen(chosen.filter((s) => s !== slug))}
                >
                  Remove {slug}
                </Button>
              ))}
            </Alert>
          )}
          <Stack gap={6} role="group" aria-label="Built-in abilities">
            <Text size="sm" fw={500}>
              Built-in abilities
            </Text>
            {ABILITIES.map(({ name, label }) => (
              <Switch
                key={name}
                label={label}
                checked={abilityOf(name)}
                description={record[name] === undefined ? 'Not known until saved here.' : undefined}
                onChange={(event) =>
                  change({ abilities: { ...draft?.abilities, [name]: event.currentTarget.checked } })
                }
              />
            ))}
          </Stack>
          <Checkbox.Group
            value={servers}
            onChange={(next) => change({ servers: next })}
            label="MCP servers"
            description={
              linkedKnown
                ? 'The tenant’s MCP servers this mentor may call.'
                : 'This mentor’s settings do not say which are linked: ticking some and saving links exactly those.'
            }
          >
            <Stack gap={8} mt={6}>
              {(mcp.data?.records ?? []).map((server) => (
                <Checkbox
                  key={String(server.id)}
                  value={String(server.id)}
                  data-mcp-server={String(server.id)}
                  label={String(server.name ?? `#${String(server.id)}`)}
                  description={typeof server.url === 'string' ? server.url : undefined}
                />
              ))}
              {mcp.data && mcp.data.records.length === 0 && (
                <Text size="sm" c="dimmed">
                  The tenant has no MCP servers.
                </Text>
              )}
              <Anchor href="#/mentor-configuration/mcp-servers" size="sm">
                The tenant’s MCP servers
              </Anchor>
            </Stack>
          </Checkbox.Group>
          {note && (
            <Alert
              color={note.ok ? 'green' : 'red'}
              title={note.ok ? undefined : 'Not saved'}
              icon={note.ok ? undefined : <WarningIcon />}
            >
              {note.text}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" disabled={!dirty || save.isPending} onClick={() => setDraft(null)}>
              Discard changes
            </Button>
            <WriteButton refusal={writeRefusal} onClick={submit} loading={save.isPending} disabled={!dirty}>
              Save tools
            </WriteButton>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
