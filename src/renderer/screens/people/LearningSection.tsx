/**
 * A person's learning profile on their page: the skills and roles they want and report, the skill points they
 * have earned (the platform's `catalog/skills/…`, `roles/…`, `milestones/skill_points/user/`), and whether they
 * completed each course they are enrolled in (`milestones/completions/course/manage/`). Read-only.
 */
import { Anchor, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { PersonLearning } from '../../../shared/contract';
import { SectionLoadError } from '../../components/SectionReach';
import { formatDate } from '../../lib/format';
import { useCall } from '../../queries/useCall';

/** Courses shown before "Show all": the section shares a two-column grid with the page's other sections. */
const FIRST_COURSES = 8;

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

/** Each enrolled course, completed (and when) or not; its own loading and error state beside the profile's. */
function Completions({ profileId, username, userId }: { profileId: string; username: string; userId: number }) {
  const [all, setAll] = useState(false);
  const valid = Number.isInteger(userId) && userId > 0;
  const list = useCall('people.completions', { profileId, username, userId }, { enabled: valid });
  const courses = list.data?.courses ?? [];
  const shown = all ? courses : courses.slice(0, FIRST_COURSES);
  const done = courses.filter((course) => course.completed).length;
  return (
    <Stack gap={4} data-testid="person-completions">
      <Text size="xs" c="dimmed" fw={500}>
        Course completions
      </Text>
      {!valid ? (
        <Text size="sm" c="dimmed">
          Not available: the platform gives this person no numeric user id.
        </Text>
      ) : list.error ? (
        <SectionLoadError
          section="person-completions"
          title="Course completions could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : list.isPending ? (
        <Stack gap={6} aria-busy>
          <Skeleton height={14} />
          <Skeleton height={14} width="60%" />
        </Stack>
      ) : courses.length === 0 ? (
        <Text size="sm" c="dimmed">
          Not enrolled in any course
        </Text>
      ) : (
        <>
          <Text size="sm" fw={600} data-testid="person-completions-summary">
            {done} of {courses.length} {courses.length === 1 ? 'course' : 'courses'} completed
          </Text>
          <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {shown.map((course) => (
              <Group
                key={course.courseId}
                component="li"
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                data-testid="person-completion"
              >
                <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }} title={course.courseId}>
                  {course.name ?? course.courseId}
                </Text>
                {course.completed ? (
                  <Badge color="teal" variant="light" radius="sm" tt="none" style={{ flexShrink: 0 }}>
                    Completed{course.completedAt ? ` ${formatDate(course.completedAt)}` : ''}
                  </Badge>
                ) : (
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    Not completed
                  </Text>
                )}
              </Group>
            ))}
          </Stack>
          {courses.length > FIRST_COURSES && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => setAll(!all)}
              style={{ alignSelf: 'flex-start' }}
            >
              {all ? 'Show fewer' : `Show all ${courses.length} courses`}
            </Anchor>
          )}
        </>
      )}
    </Stack>
  );
}

export function LearningSection({
  profileId,
  username,
  userId,
}: {
  profileId: string;
  username: string;
  userId: number;
}) {
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
        <Completions profileId={profileId} username={username} userId={userId} />
      </Stack>
    </Paper>
  );
}
