import { Badge, Group, type MantineColor } from '@mantine/core';
import { IMPORT_OUTCOMES, outcomeWords, type ImportOutcome, type OutcomeCounts } from '../../../../shared/contract';
import { formatCount } from '../../../lib/format';

const COLORS: Record<ImportOutcome, MantineColor> = {
  invited: 'teal',
  invalid: 'red',
  duplicate: 'orange',
  alreadyInvited: 'gray',
  alreadyMember: 'gray',
  dropped: 'gray',
  failed: 'red',
};

/**
 * What becomes of an import's rows, in the same words before sending (the review) and after (the job's result): one
 * vocabulary, so a duplicate in the review is a duplicate in the result.
 */
export function OutcomeBadges({ counts, sent, testId }: { counts: OutcomeCounts; sent: boolean; testId?: string }) {
  const shown = IMPORT_OUTCOMES.filter((outcome) => outcome === 'invited' || (counts[outcome] ?? 0) > 0);
  return (
    <Group gap="xs" data-testid={testId} aria-live="polite">
      {shown.map((outcome) => {
        const n = counts[outcome] ?? 0;
        return (
          <Badge
            key={outcome}
            size={outcome === 'invited' ? 'lg' : 'md'}
            color={COLORS[outcome]}
            variant={outcome === 'dropped' ? 'outline' : 'light'}
          >
            {formatCount(n)} {outcomeWords(outcome, n, sent)}
          </Badge>
        );
      })}
    </Group>
  );
}
