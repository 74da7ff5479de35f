import { Alert, Badge, Button, Group, Loader, Mark, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useBridge } from '../../bridge/BridgeContext';
import { errorMessage } from '../../bridge/errors';
import { SearchIcon, WarningIcon } from '../../components/icons';
import { callKey } from '../../queries/useCall';
import { plural } from '../../lib/format';
import type { MentorTarget } from '../../train/TrainFlowContext';
import { formatScore, highlightParts } from './highlight';

/** Ask what the mentor's documents say: the passages `documents.search` finds, with their document and score. */
export function TestKnowledge({ mentor }: { mentor: MentorTarget }) {
  const bridge = useBridge();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  const input = { profileId: mentor.profileId, mentor: mentor.uniqueId, query: asked, limit: 8 };
  const search = useQuery({
    queryKey: callKey('documents.search', input),
    queryFn: () => bridge.call('documents.search', input),
    enabled: asked.length > 0,
    retry: false,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = text.trim();
    if (query === asked) void search.refetch();
    else setAsked(query);
  }

  return (
    <Stack gap="md" maw={900}>
      <Text size="sm" c="dimmed">
        Ask something a learner would ask. The passages below are what {mentor.name} finds in its trained documents.
      </Text>
      <form onSubmit={submit}>
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <TextInput
            label="Question"
            placeholder="What is photosynthesis?"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            leftSection={<SearchIcon size={16} />}
            style={{ flex: 1 }}
          />
          <Button type="submit" disabled={!text.trim()} loading={search.isFetching}>
            Search
          </Button>
        </Group>
      </form>
      {search.isError && (
        <Alert color="red" icon={<WarningIcon />} title="The search failed">
          {errorMessage(search.error)}
        </Alert>
      )}
      {search.isPending && search.fetchStatus === 'fetching' && <Loader size="sm" />}
      {search.data && (
        <Stack gap="sm" aria-live="polite" data-testid="passages">
          <Text size="sm" fw={600}>
            {search.data.passages.length
              ? `${plural(search.data.passages.length, 'passage')} for “${asked}”`
              : `Nothing found for “${asked}”. Train documents that cover it, or try other words.`}
          </Text>
          {search.data.passages.map((passage, index) => (
            <Paper
              key={`${passage.documentId ?? passage.documentName}-${index}`}
              withBorder
              radius="md"
              p="sm"
              data-testid="passage"
            >
              <Group justify="space-between" mb={6} wrap="nowrap" gap="sm">
                <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                  <Text size="xs" c="dimmed" fw={600} aria-label={`Rank ${index + 1}`}>
                    {index + 1}.
                  </Text>
                  <Badge variant="light" radius="sm" style={{ minWidth: 0 }}>
                    {passage.documentName || 'Unnamed document'}
                  </Badge>
                </Group>
                {passage.score !== null && (
                  <Tooltip
                    label="How well the passage matches the question, as the tenant scores it: higher is better"
                    withArrow
                    multiline
                    w={260}
                  >
                    <Text
                      size="xs"
                      c="dimmed"
                      style={{ whiteSpace: 'nowrap' }}
                      data-testid="passage-score"
                      tabIndex={0}
                    >
                      relevance {formatScore(passage.score)}
                    </Text>
                  </Tooltip>
                )}
              </Group>
              <Text size="sm" lineClamp={6}>
                {highlightParts(passage.text, asked).map((part, at) =>
                  part.hit ? <Mark key={at}>{part.text}</Mark> : part.text,
                )}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
