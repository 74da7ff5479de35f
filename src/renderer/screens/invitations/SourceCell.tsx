import { Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../lib/format';

/** `csv:<file>@<time>Z`: the tag an import gives its invitations (see the engine's `batchSource`). */
const BATCH_TAG = /^csv:(.+)@(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$/;

/** An invitation's source: an import batch read as its file and time, anything else (a username, a campaign) as is. */
export function SourceCell({ source }: { source: string | null }) {
  if (!source)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  const batch = BATCH_TAG.exec(source);
  if (!batch) return <span style={{ overflowWrap: 'anywhere' }}>{source}</span>;
  const at = formatDateTime(batch[2]!);
  return (
    <Stack gap={0} title={source}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {batch[1]}
      </Text>
      <Text size="xs" c="dimmed">
        CSV import · {at}
      </Text>
    </Stack>
  );
}

/** An address that may wrap after its @ (never in the middle of a word unless it must). */
export function Address({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
