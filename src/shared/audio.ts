/**
 * What a file's first bytes say it is, for audio uploads (an ElevenLabs voice's samples, audio-to-text). The spec
 * names no accepted audio formats and no size limit for audio-to-text; it says only that a voice's samples "should
 * be smaller than 11 MiB" in total. So: a file whose bytes are plainly something else (a document, an image, an
 * archive, text) is refused before upload; bytes of no format known here are sent with a warning.
 */

/** ElevenLabs voice samples: "the total size should be smaller than 11 MiB" (the spec's note on `elevenlabs-voice/`). */
export const VOICE_SAMPLES_MAX_BYTES = 11 * 1024 * 1024;
/** "The audio files' total length should be longer than 1 minute" (the same note): warned, where it can be measured. */
export const VOICE_SAMPLES_MIN_SECONDS = 60;

/** File extensions the app's file dialogs offer for audio. */
export const AUDIO_EXTENSIONS = [
  'mp3',
  'wav',
  'm4a',
  'mp4',
  'aac',
  'ogg',
  'oga',
  'opus',
  'flac',
  'webm',
  'aiff',
  'aif',
];
export const AUDIO_ACCEPT = ['audio/*', ...AUDIO_EXTENSIONS.map((ext) => `.${ext}`)].join(',');

export type AudioSniff =
  { kind: 'audio'; format: string; mime: string } | { kind: 'other'; format: string } | { kind: 'unknown' };

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));
const starts = (bytes: Uint8Array, ...values: number[]) => values.every((value, i) => bytes[i] === value);

/** Text: no NUL and almost only printable characters in the first bytes (CSV, JSON, HTML, a transcript…). */
function isText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 512);
  if (!head.length) return false;
  let printable = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte >= 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte >= 0x80) printable++;
  }
  return printable / head.length > 0.97;
}

/** What the first bytes (at least 16) of a file are. */
export function sniffAudio(bytes: Uint8Array): AudioSniff {
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return audio('WAV', 'audio/wav');
  if (ascii(bytes, 0, 3) === 'ID3') return audio('MP3', 'audio/mpeg');
  // An MPEG audio frame: 11 sync bits, then a layer that is not "reserved".
  if (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x06) !== 0) return audio('MP3', 'audio/mpeg');
  if (ascii(bytes, 0, 4) === 'OggS') return audio('Ogg', 'audio/ogg');
  if (ascii(bytes, 0, 4) === 'fLaC') return audio('FLAC', 'audio/flac');
  if (ascii(bytes, 0, 4) === 'FORM' && /^AIF[FC]$/.test(ascii(bytes, 8, 4))) return audio('AIFF', 'audio/aiff');
  if (ascii(bytes, 4, 4) === 'ftyp') return audio('MPEG-4 audio', 'audio/mp4');
  if (starts(bytes, 0x1a, 0x45, 0xdf, 0xa3)) return audio('WebM', 'audio/webm');
  // ADTS AAC: 12 sync bits, layer 00.
  if (bytes[0] === 0xff && (bytes[1]! & 0xf6) === 0xf0) return audio('AAC', 'audio/aac');
  if (ascii(bytes, 0, 5) === '%PDF-') return { kind: 'other', format: 'a PDF document' };
  if (starts(bytes, 0x89, 0x50, 0x4e, 0x47)) return { kind: 'other', format: 'a PNG image' };
  if (starts(bytes, 0xff, 0xd8, 0xff)) return { kind: 'other', format: 'a JPEG image' };
  if (ascii(bytes, 0, 4) === 'GIF8') return { kind: 'other', format: 'a GIF image' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return { kind: 'other', format: 'a WebP image' };
  if (starts(bytes, 0x50, 0x4b, 0x03, 0x04)) return { kind: 'other', format: 'a ZIP archive or Office document' };
  if (isText(bytes)) return { kind: 'other', format: 'a text file' };
  return { kind: 'unknown' };
}

function audio(format: string, mime: string): AudioSniff {
  return { kind: 'audio', format, mime };
}

/** The length of a PCM WAV file in seconds, or null when it is not one this can read. */
export function wavSeconds(bytes: Uint8Array): number | null {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = ascii(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = view.getUint32(at + 16, true);
    if (id === 'data') return byteRate ? size / byteRate : null;
    at += 8 + size + (size % 2);
  }
  return null;
}
