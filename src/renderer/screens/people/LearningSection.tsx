/**
 * A person's learning profile on their page: the skills and roles they want and report, and the skill points they
 * have earned (the platform's `catalog/skills/…`, `roles/…`, `milestones/skill_points/user/`). Read-only.
 */
import { Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { PersonLearning } from '../../../shared/contract';
import { SectionLoadError } from '../../components/SectionReach';
import { useCall } from '../../queries/useCall';

function Names({ label, items }: { label: string; items: { id: number; name: string }[] }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ) : (
        <Group gap={6}>
          {items.map((item) => (
            <Badge key={item.id} variant="light" radius="sm" tt="none">
              {item.name}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function Points({ learning }: { learning: PersonLearning }) {
  const total = learning.totalPoints ?? learning.skillPoints.reduce((sum, s) => sum + s.points, 0);
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" fw={500}>
        Skill points
      </Text>
      {learning.skillPoints.length === 0 && learning.totalPoints === null ? (
        <Text size="sm" c="dimmed">
          None earned yet
        </Text>
      ) : (
        <>
          <Text size="sm" fw={600} data-testid="person-skill-points-total">
            {total.toLocaleString('en-US')} points
          </Text>
          {learning.skillPoints.map((skill) => (
            <Group key={`${skill.id}-${skill.name}`} justify="space-between" wrap="nowrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {skill.name}
              </Text>
              <Text size="sm" ff="monospace">
                {skill.points.toLocaleString('en-US')}
              </Text>
            </Group>
          ))}
        </>
      )}
    </Stack>
  );
}

export function LearningSection({ profileId, username }: { profileId: string; username: string }) {
  const learning = useCall('people.learning', { profileId, username });
  return (
    <Paper withBorder radius="md" p="md" data-testid="person-learning">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Skills, roles and milestones
        </Title>
        {learning.error ? (
          <SectionLoadError
            section="person-learning"
            title="Skills and roles could not be loaded"
            error={learning.error}
            onRetry={() => void learning.refetch()}
          />
        ) : learning.isPending ? (
          <Stack gap={6} aria-busy>
            <Skeleton height={14} />
            <Skeleton height={14} width="70%" />
          </Stack>
        ) : (
          <>
            <Names label="Skills they want" items={learning.data.desiredSkills} />
            <Names label="Skills they report" items={learning.data.reportedSkills} />
            <Names label="Roles they want" items={learning.data.desiredRoles} />
            <Names label="Roles they hold" items={learning.data.reportedRoles} />
            <Points learning={learning.data} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
