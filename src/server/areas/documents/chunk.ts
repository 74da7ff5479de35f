/**
 * Chunking for retrieval. Tokens are estimated as one token per 4 characters (rounded up): the usual rule of thumb
 * for English with GPT-style tokenizers; the sandbox has no real tokenizer.
 */

export const CHARS_PER_TOKEN = 4;
export const CHUNK_TOKENS = 800;
export const OVERLAP_TOKENS = 100;

export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Sentences (with their trailing space or paragraph break); a sentence longer than `max` is cut at word boundaries. */
function units(text: string, max: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n{2,}/)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    const sentences = trimmed.match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n|$)\s*/g) ?? [trimmed];
    sentences.forEach((sentence, i) => {
      const unit = i === sentences.length - 1 ? `${sentence.trimEnd()}\n\n` : sentence;
      if (unit.length <= max) {
        out.push(unit);
        return;
      }
      let rest = unit;
      while (rest.length > max) {
        const cut = rest.lastIndexOf(' ', max);
        const at = cut > max / 2 ? cut + 1 : max;
        out.push(rest.slice(0, at));
        rest = rest.slice(at);
      }
      if (rest) out.push(rest);
    });
  }
  return out;
}

/**
 * Splits text into chunks of about `maxTokens` tokens; each chunk after the first repeats the last sentences of the
 * previous one (up to `overlapTokens`) so a passage cut at a boundary is still found whole in one chunk.
 */
export function chunkText(text: string, maxTokens = CHUNK_TOKENS, overlapTokens = OVERLAP_TOKENS): string[] {
  const maxChars = maxTokens * CHARS_PER_TOKEN;
  const overlapChars = overlapTokens * CHARS_PER_TOKEN;
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  let fresh = 0;
  for (const unit of units(text, maxChars)) {
    if (size + unit.length > maxChars && fresh > 0) {
      chunks.push(current.join('').trim());
      const tail: string[] = [];
      let tailSize = 0;
      for (let i = current.length - 1; i >= 0 && tailSize + current[i]!.length <= overlapChars; i--) {
        tail.unshift(current[i]!);
        tailSize += current[i]!.length;
      }
      current = tail;
      size = tailSize;
      fresh = 0;
    }
    current.push(unit);
    size += unit.length;
    fresh++;
  }
  if (fresh > 0) chunks.push(current.join('').trim());
  return chunks.filter(Boolean);
}
