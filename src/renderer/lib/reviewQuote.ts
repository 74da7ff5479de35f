/**
 * "Adjust the mentor" from the review queue: the flagged item travels to the mentor's page (this window only, never
 * stored) so the page can quote it above the mentor's safety prompt.
 */
import type { ReviewItem } from '../../shared/contract';
import { formatDateTime } from './format';

export interface ReviewQuote {
  mentor: string;
  source: string;
  reason: string;
  prompt: string;
  at: string;
}

const KEY = 'review.quote';

export function handOverQuote(quote: ReviewQuote): void {
  sessionStorage.setItem(KEY, JSON.stringify(quote));
}

/** The quote handed over for this mentor, if any. */
export function quoteFor(mentor: string): ReviewQuote | null {
  try {
    const quote = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as ReviewQuote | null;
    return quote?.mentor === mentor ? quote : null;
  } catch {
    return null;
  }
}

export function dropQuote(): void {
  sessionStorage.removeItem(KEY);
}

/** The quote as text to paste into a prompt. */
export const quoteText = (q: ReviewQuote) =>
  `${q.source === 'Negative feedback' ? 'Rated down by the learner' : `Flagged by the ${q.source} (${q.reason})`} on ${q.at.slice(0, 10)}:\n> ${q.prompt.replace(/\n/g, '\n> ')}`;

/** The item quoted as a note: what was flagged, why, by whom, where. */
export function ticketNote(item: ReviewItem): string {
  const quote = (text: string) =>
    text
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
  return [
    `${item.source === 'Negative feedback' ? `${item.learner} rated down the mentor's answer` : `${item.source} flagged ${item.learner}'s message`} on ${formatDateTime(item.createdAt)} (review item ${item.id}, mentor ${item.mentorName ?? item.mentorId}):`,
    quote(item.prompt),
    `Reason: ${item.reason}`,
    '',
  ].join('\n');
}
