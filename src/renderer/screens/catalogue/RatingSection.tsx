import { Group, Stack, Text, Title } from '@mantine/core';
import type { MetadataScope } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { formatCount } from '../../lib/format';
import { useCall } from '../../queries/useCall';

/** A course's or a program's rating over its visible reviews (the platform's review info), read-only. */
export function RatingSection({ profileId, scope, id }: { profileId: string; scope: MetadataScope; id: string }) {
  const rating = useCall('catalogue.rating', { profileId, scope, id });
  return (
    <Stack gap={4} data-testid="item-rating">
      <Title order={4}>Rating</Title>
      {rating.isError ? (
        <Text size="sm" c="red">
          The rating could not be read: {errorMessage(rating.error)}
        </Text>
      ) : !rating.data ? (
        <Text size="sm" c="dimmed">
          Reading the rating…
        </Text>
      ) : rating.data.count === 0 || rating.data.average === null ? (
        <Text size="sm" c="dimmed">
          No visible reviews yet.
        </Text>
      ) : (
        <Group gap="xs">
          <Text fw={600}>{rating.data.average.toFixed(1)} of 5</Text>
          <Text size="sm" c="dimmed">
            from {formatCount(rating.data.count)} visible {rating.data.count === 1 ? 'review' : 'reviews'}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
