/** The words an item travels with to a ticket note or the mentor's safety prompt: a rating is no system's flag. */
import { describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../src/shared/contract';
import { quoteText, ticketNote } from '../../src/renderer/lib/reviewQuote';

const item = (source: ReviewItem['source']): ReviewItem => ({
  id: source === 'Negative feedback' ? 'feedback:abc' : 'safety:7',
  source,
  logId: source === 'Negative feedback' ? null : 7,
  session: source === 'Negative feedback' ? 'abc' : null,
  learner: 'ann',
  email: 'ann@example.org',
  mentorId: 3,
  mentorName: 'Tutor',
  prompt: 'The answer\nin two lines',
  reason: source === 'Negative feedback' ? 'Rated down by the learner' : 'Self-harm risk',
  createdAt: '2026-11-20T10:00:00.000Z',
  reviewedBy: null,
  reviewedAt: null,
});

describe('review quotes', () => {
  it('say a system flagged a log, and that the learner rated down an answer', () => {
    expect(ticketNote(item('Safety System'))).toMatch(/^Safety System flagged ann's message on .*review item safety:7/);
    const note = ticketNote(item('Negative feedback'));
    expect(note).toMatch(/^ann rated down the mentor's answer on .*review item feedback:abc/);
    expect(note).toContain('> The answer\n> in two lines');
    const quote = (source: ReviewItem['source']) =>
      quoteText({ mentor: 'm', source, reason: item(source).reason, prompt: 'x', at: '2026-11-20T10:00:00Z' });
    expect(quote('Safety System')).toBe('Flagged by the Safety System (Self-harm risk) on 2026-11-20:\n> x');
    expect(quote('Negative feedback')).toBe('Rated down by the learner on 2026-11-20:\n> x');
  });
});
