/**
 * "Adjust the mentor" from the review queue: the flagged item travels to the mentor's page (this window only, never
 * stored) so the page can quote it above the mentor's safety prompt.
 */
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
