/**
 * Which words of a passage to mark for a question: whole words only ("are" never inside "compare"), ignoring case,
 * accents and a plural -s/-es/-ies ("limits" marks "limit"). The question's filler words ("what", "are", "the") are
 * not marked unless the question has nothing else: marked everywhere, they hide the words that matter.
 */
export interface TextPart {
  text: string;
  hit: boolean;
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our should so than that the their them then there these they this to was we were ' +
    'what when where which who whom why will with would you your'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Lower case, accents removed, and a plural ending taken off. */
export function wordKey(word: string): string {
  const plain = word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]s$/, '');
  if (plain.length <= 3) return plain;
  if (plain.endsWith('ies')) return `${plain.slice(0, -3)}y`;
  if (/(s|x|z|ch|sh)es$/.test(plain)) return plain.slice(0, -2);
  if (plain.endsWith('s') && !plain.endsWith('ss')) return plain.slice(0, -1);
  return plain;
}

/** The keys of the words worth marking for `question`. */
export function questionKeys(question: string): Set<string> {
  const words = question.match(WORD) ?? [];
  const all = words.map((word) => word.toLowerCase());
  const meaningful = all.filter((word) => !STOP_WORDS.has(word.normalize('NFD').replace(/\p{M}+/gu, '')));
  return new Set((meaningful.length ? meaningful : all).map(wordKey));
}

/** `text` cut into parts, the whole words that match the question marked. */
export function highlightParts(text: string, question: string): TextPart[] {
  const keys = questionKeys(question);
  if (!keys.size) return [{ text, hit: false }];
  const parts: TextPart[] = [];
  let plain = '';
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (!keys.has(wordKey(match[0]))) continue;
    plain += text.slice(last, match.index);
    if (plain) parts.push({ text: plain, hit: false });
    parts.push({ text: match[0], hit: true });
    plain = '';
    last = match.index + match[0].length;
  }
  plain += text.slice(last);
  if (plain) parts.push({ text: plain, hit: false });
  return parts;
}

/** A score as the tenant gave it, never rounded to a misleading 0.00. */
export function formatScore(score: number): string {
  if (score === 0 || Math.abs(score) >= 100) return score.toFixed(0);
  return Math.abs(score) >= 1 ? score.toFixed(2) : score.toPrecision(2);
}
