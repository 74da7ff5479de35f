/**
 * The sandbox's speech: `speak` makes a WAV of one short tone per word, pitched by the voice's name and the word,
 * whose LIST/INFO comment carries the text; `transcribe` answers that comment for such a WAV (speech made here reads
 * back as its text) and, for any other audio, one of a few fixed sentences chosen by the file's SHA-256.
 */
import { createHash } from 'node:crypto';

/** The sentences audio-to-text answers for audio the sandbox did not make, one per file by its SHA-256. */
export const SANDBOX_TRANSCRIPTS = [
  'Hello, I would like some help with my homework.',
  'Can you explain the main idea of this week’s reading?',
  'What are the key dates for the course assignments?',
  'Please summarise the last lecture in three points.',
];

const hash = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);

const RATE = 8000;

/** A mono 16-bit WAV: one tone of 0.22 s per word (at most 200), 0.06 s apart, the text in its INFO comment. */
export function speak(text: string, voiceName: string): Uint8Array {
  const words = text.split(/\s+/).filter(Boolean).slice(0, 200);
  const base = 140 + (hash(voiceName) % 120);
  const tone = Math.round(RATE * 0.22);
  const gap = Math.round(RATE * 0.06);
  const samples = new Int16Array(words.length * (tone + gap));
  words.forEach((word, index) => {
    const frequency = base + (hash(word.toLowerCase()) % 80) - 40;
    const start = index * (tone + gap);
    for (let i = 0; i < tone; i++) {
      const fade = Math.min(1, i / 200, (tone - i) / 200);
      samples[start + i] = Math.round(Math.sin((2 * Math.PI * frequency * i) / RATE) * 9000 * fade);
    }
  });
  const comment = Buffer.from(`${text}\0`, 'utf8');
  const padded = comment.length + (comment.length % 2);
  const info = Buffer.alloc(4 + 8 + padded);
  info.write('INFO', 0, 'ascii');
  info.write('ICMT', 4, 'ascii');
  info.writeUInt32LE(comment.length, 8);
  comment.copy(info, 12);
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  const listHeader = Buffer.alloc(8);
  listHeader.write('LIST', 0, 'ascii');
  listHeader.writeUInt32LE(info.length, 4);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length + 8 + info.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data, listHeader, info]));
}

/** The INFO comment of a WAV made by `speak`, else a fixed sentence picked by the file's hash. */
export function transcribe(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.toString('ascii', 0, 4) === 'RIFF' && buffer.toString('ascii', 8, 12) === 'WAVE') {
    for (let at = 12; at + 8 <= buffer.length;) {
      const id = buffer.toString('ascii', at, at + 4);
      const size = buffer.readUInt32LE(at + 4);
      if (id === 'LIST' && buffer.toString('ascii', at + 8, at + 12) === 'INFO') {
        for (let sub = at + 12; sub + 8 <= at + 8 + size;) {
          const subSize = buffer.readUInt32LE(sub + 4);
          if (buffer.toString('ascii', sub, sub + 4) === 'ICMT') {
            return buffer.toString('utf8', sub + 8, sub + 8 + subSize).replace(/\0+$/, '');
          }
          sub += 8 + subSize + (subSize % 2);
        }
      }
      at += 8 + size + (size % 2);
    }
  }
  const digest = createHash('sha256').update(buffer).digest();
  return SANDBOX_TRANSCRIPTS[digest.readUInt32BE(0) % SANDBOX_TRANSCRIPTS.length]!;
}
