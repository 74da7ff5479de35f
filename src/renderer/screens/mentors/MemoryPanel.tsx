/**
 * A mentor's "Memory" tab: its memory settings (what it follows a learner through), and what it remembers of one
 * learner picked from the tenant's people: the current memory by category, the learner's progress, the recorded
 * history, and clearing it once the learner's username is typed.
 */
import { Alert, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import { useState } from 'react';
import { MEMORY_COMPONENT_LABELS, MEMORY_COMPONENTS, type LearnerMemory } from '../../../shared/contract';
import { RESOURCES } from '../../../shared/resources';
import { SectionLoadError, SectionReach } from '../../components/SectionReach';
import { LearnerMemories } from '../../components/memory/LearnerMemories';
import { TypedConfirmModal } from '../../components/TypedConfirmModal';
import { notifySuccess } from '../../components/notify';
import { TrashIcon } from '../../components/icons';
import { useCall, useMutationCall } from '../../queries/useCall';
import { RecordPicker } from '../../resources/Relations';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { SingleRecordCard } from '../../resources/SingleRecordCard';
import type { MentorTarget } from '../../train/TrainFlowContext';

const KIND_LABELS: Record<string, string> = {
  KnowledgeGap: 'Knowledge gap',
  LessonsLearned: 'Lesson learned',
  HelpRequest: 'Help request',
};

export function MemoryPanel({ mentor }: { mentor: MentorTarget }) {
  return (
    <SectionReach what="this mentor's memory">
      <Stack gap="lg" data-testid="mentor-memory">
        <SingleRecordCard
          profileId={mentor.profileId}
          declaration={RESOURCES['mentor-memory-settings']}
          recordKey={mentor.uniqueId}
        />
        <SingleRecordCard
          profileId={mentor.profileId}
          declaration={RESOURCES['mentor-auto-memory-prompt']}
          recordKey={mentor.uniqueId}
        />
        {/* Keyed by tenant and mentor: a learner picked on one never shows under another. */}
        <LearnerMemorySection key={`${mentor.profileId}:${mentor.uniqueId}`} mentor={mentor} />
      </Stack>
    </SectionReach>
  );
}

function LearnerMemorySection({ mentor }: { mentor: MentorTarget }) {
  const [learner, setLearner] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);
  const memory = useCall(
    'memory.learner',
    { profileId: mentor.profileId, mentor: mentor.uniqueId, learner: learner ?? '' },
    { enabled: !!learner },
  );
  const data = memory.data;
  // A tenant the engine knows is out of reach: clearing waits, and says why.
  const refusal = useWriteRefusal();
  const held = data ? MEMORY_COMPONENTS.reduce((sum, category) => sum + data.current[category].length, 0) : 0;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} size="h4">
          A learner’s memory
        </Title>
        <Text size="sm" c="dimmed">
          What {mentor.name} remembers of one learner: gaps in their knowledge, lessons learned and requests for help.
        </Text>
      </Stack>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <RecordPicker
          profileId={mentor.profileId}
          kind="users"
          valueField="username"
          label="Learner"
          placeholder="Search the tenant’s people"
          value={learner}
          onChange={(value) => setLearner(value === null ? null : String(value))}
          w={320}
          maw="100%"
        />
        {learner && (
          <WriteButton
            variant="subtle"
            color="red"
            leftSection={<TrashIcon size={16} />}
            refusal={refusal}
            disabled={!refusal && !data}
            onClick={() => setClearing(true)}
          >
            Clear memory…
          </WriteButton>
        )}
      </Group>

      {!learner && (
        <Text size="sm" c="dimmed">
          Pick a learner to see what the mentor remembers of them.
        </Text>
      )}
      {learner && memory.isPending && <Skeleton height={120} radius="md" />}
      {learner && memory.isError && (
        <SectionLoadError
          section="learner-memory"
          title={`The memory of ${learner} could not be read`}
          error={memory.error}
          onRetry={() => void memory.refetch()}
        />
      )}
      {data && (
        <>
          {data.warnings.map((warning) => (
            <Alert key={warning} color="yellow" variant="light">
              {warning}
            </Alert>
          ))}
          {held === 0 && (
            <Text size="sm" data-testid="memory-empty">
              {mentor.name} remembers nothing of {learner}.
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
            {MEMORY_COMPONENTS.map((category) => (
              <Paper key={category} withBorder radius="md" p="md" data-category={category}>
                <Group justify="space-between" mb="xs">
                  <Text fw={600} size="sm">
                    {MEMORY_COMPONENT_LABELS[category]}
                  </Text>
                  <Badge variant="light" radius="sm">
                    {data.current[category].length}
                  </Badge>
                </Group>
                {data.current[category].length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None.
                  </Text>
                ) : (
                  <Stack gap={4} component="ul" style={{ margin: 0, paddingLeft: 18 }}>
                    {data.current[category].map((item, index) => (
                      <Text key={index} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
                        {item}
                      </Text>
                    ))}
                  </Stack>
                )}
              </Paper>
            ))}
          </SimpleGrid>
          <Progress progress={data.progress} />
          <History history={data.history} />
        </>
      )}
      {learner && (
        <LearnerMemories
          key={learner}
          profileId={mentor.profileId}
          learner={learner}
          mentor={{ uniqueId: mentor.uniqueId, name: mentor.name }}
        />
      )}
      {data && (
        <ClearMemoryModal
          mentor={mentor}
          learner={data.learner}
          // Left open as the tenant goes out of reach, it closes: the button behind it says why.
          opened={clearing && !refusal}
          onClose={() => setClearing(false)}
        />
      )}
    </Stack>
  );
}

function Progress({ progress }: { progress: LearnerMemory['progress'] }) {
  if (!progress) return null;
  return (
    <Paper withBorder radius="md" p="md" data-testid="memory-progress">
      <Text fw={600} size="sm" mb={4}>
        Progress
      </Text>
      {progress.item_name ? (
        <Text size="sm">
          {progress.memory_type} <strong>{progress.item_name}</strong>: unit {progress.current_unit ?? '?'} of{' '}
          {progress.all_units ?? '?'}
          {progress.current_unit_name ? ` (${progress.current_unit_name})` : ''}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          The mentor follows no course or program: set one in its memory settings above.
        </Text>
      )}
    </Paper>
  );
}

function History({ history }: { history: LearnerMemory['history'] }) {
  return (
    <Stack gap="xs" data-testid="memory-history">
      <Text fw={600} size="sm">
        History
      </Text>
      {history.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing recorded.
        </Text>
      ) : (
        <Timeline bulletSize={12} lineWidth={2}>
          {history.map((entry, index) => (
            <Timeline.Item key={`${entry.insertedAt}-${index}`} title={entry.insertedAt}>
              {entry.items.map((item, n) => (
                <Text key={n} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <Text span c="dimmed" size="sm">
                    {KIND_LABELS[item.kind] ?? item.kind}:
                  </Text>{' '}
                  {item.content}
                </Text>
              ))}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}

/** Clearing, asked for with the learner's username typed out; a learner with no memory is told so, not an error. */
function ClearMemoryModal({
  mentor,
  learner,
  opened,
  onClose,
}: {
  mentor: MentorTarget;
  learner: string;
  opened: boolean;
  onClose(): void;
}) {
  const clear = useMutationCall('memory.clear');
  return (
    <TypedConfirmModal
      opened={opened}
      title={`Clear the memory of ${learner}?`}
      names={[learner]}
      accepts={(typed) => typed === learner}
      mutation={clear}
      confirmLabel="Clear memory"
      onConfirm={(typed, done) =>
        clear.mutate(
          { profileId: mentor.profileId, mentor: mentor.uniqueId, learner, confirm: typed },
          {
            onSuccess: (result) => {
              notifySuccess(
                result.nothingToClear ? 'Nothing to clear' : 'Memory cleared',
                result.nothingToClear
                  ? `${learner} has no memory with ${mentor.name}.`
                  : `${learner}'s ${result.cleared.map((c) => MEMORY_COMPONENT_LABELS[c].toLowerCase()).join(', ')} were deleted.`,
              );
              done();
            },
          },
        )
      }
      onClose={onClose}
    >
      <Text size="sm">
        This deletes <strong>{learner}</strong>’s knowledge gaps, lessons learned and help requests. The platform keeps
        them per learner, so <strong>every mentor</strong> of the tenant forgets them, not only {mentor.name}. It cannot
        be undone.
      </Text>
    </TypedConfirmModal>
  );
}
