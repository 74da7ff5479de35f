/**
 * A mentor's "Knowledge" tab: the tools it uses (the one place they are chosen), the course it is linked to, its
 * scenario, and, set apart, what every mentor of the tenant is told about the connection's user (the custom
 * instruction and the assumed knowledge, which the spec keeps per user, not per mentor).
 */
import { Divider, Stack, Text, Title } from '@mantine/core';
import { RESOURCES } from '../../../shared/resources';
import { SectionReach } from '../../components/SectionReach';
import { SingleRecordCard } from '../../resources/SingleRecordCard';
import type { MentorTarget } from '../../train/TrainFlowContext';
import { MentorToolsPanel } from './MentorToolsPanel';

export function KnowledgePanel({ mentor }: { mentor: MentorTarget }) {
  return (
    <SectionReach what="this mentor's knowledge">
      <Stack gap="lg" data-testid="mentor-knowledge">
        <MentorToolsPanel mentor={mentor} />
        <SingleRecordCard
          profileId={mentor.profileId}
          declaration={RESOURCES['mentor-course-link']}
          recordKey={mentor.uniqueId}
        />
        <SingleRecordCard
          profileId={mentor.profileId}
          declaration={RESOURCES['mentor-scenarios']}
          recordKey={mentor.uniqueId}
        />
        <Divider />
        <Stack gap={4} data-testid="account-wide">
          <Title order={2} size="h4">
            For the connected account, in every mentor
          </Title>
          <Text size="sm" c="dimmed">
            Not this mentor’s own settings: the two below belong to the account this app connects with, and every mentor
            of this tenant reads them. A change here changes them for all mentors.
          </Text>
        </Stack>
        <SingleRecordCard profileId={mentor.profileId} declaration={RESOURCES['custom-instruction']} />
        <SingleRecordCard profileId={mentor.profileId} declaration={RESOURCES['assumed-knowledge']} />
      </Stack>
    </SectionReach>
  );
}
