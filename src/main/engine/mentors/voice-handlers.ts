/**
 * mentors.voice|setVoice|speak, voices.elevenlabs|addElevenlabs|deleteElevenlabs, audio.inspect|transcribe: a
 * mentor's custom voice and hearing it, the tenant's ElevenLabs voices, and a test of audio-to-text. Audio files are
 * looked at before anything is sent: what is plainly not audio, or samples above the spec's 11 MiB, never leave.
 */
import { open, stat } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { sniffAudio, VOICE_SAMPLES_MAX_BYTES, VOICE_SAMPLES_MIN_SECONDS, wavSeconds } from '../../../shared/audio';
import { formatBytes } from '../../../shared/bytes';
import type { AudioCheck, AudioFileCheck, ElevenLabsVoice, mentorVoiceCalls } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { TenantCalls, type AreaParts } from './tenant';
import { VoiceApi, type ApiElevenLabsVoice, type ApiMentorVoice, type AudioFile } from './voice-api';

type VoiceHandlers = HandlersOf<typeof mentorVoiceCalls>;

const toVoice = (api: ApiMentorVoice) => ({ provider: api.voice_provider, name: api.voice_name });
const toElevenLabs = (api: ApiElevenLabsVoice): ElevenLabsVoice => ({
  name: api.name,
  owner: api.owner_student ?? null,
  language: api.language ?? null,
  premade: api.is_premade ?? false,
  description: api.description ?? null,
  sampleUrl: api.sample_audio_url ?? null,
});

/** Enough of a file to tell its format, and to read a WAV header's length. */
const HEAD_BYTES = 4096;

async function checkFile(path: string): Promise<AudioFileCheck> {
  const name = basename(path);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) {
    return { name, bytes: 0, format: null, refusal: `${name} is not a file`, warning: null, seconds: null };
  }
  const handle = await open(path, 'r');
  const head = new Uint8Array(Math.min(HEAD_BYTES, info.size));
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  if (!info.size) return { name, bytes: 0, format: null, refusal: `${name} is empty`, warning: null, seconds: null };
  const sniff = sniffAudio(head);
  const seconds = wavSeconds(head);
  if (sniff.kind === 'audio')
    return { name, bytes: info.size, format: sniff.format, refusal: null, warning: null, seconds };
  if (sniff.kind === 'other') {
    const refusal = `${name} is ${sniff.format}, not an audio file`;
    return { name, bytes: info.size, format: null, refusal, warning: null, seconds: null };
  }
  const warning = `Mentor Admin does not recognise the format of ${name}; the platform may refuse it`;
  return { name, bytes: info.size, format: null, refusal: null, warning, seconds: null };
}

export async function inspectAudio(paths: string[], purpose: 'voice-samples' | 'transcribe'): Promise<AudioCheck> {
  const files = await Promise.all(paths.map(checkFile));
  const totalBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  let refusal: string | null = null;
  let warning: string | null = null;
  if (purpose === 'voice-samples') {
    if (totalBytes >= VOICE_SAMPLES_MAX_BYTES) {
      refusal = `The samples come to ${formatBytes(totalBytes)}; the platform asks for less than 11 MiB in all`;
    }
    const lengths = files.map((file) => file.seconds);
    if (lengths.every((seconds) => seconds !== null)) {
      const total = lengths.reduce<number>((sum, seconds) => sum + seconds!, 0);
      if (total < VOICE_SAMPLES_MIN_SECONDS) {
        warning = `The samples last ${Math.round(total)} s; the platform asks for more than a minute in all`;
      }
    }
  }
  return { files, totalBytes, refusal, warning };
}

/** Refuses, at the `paths` field, files that must not be sent. */
function refuseBad(check: AudioCheck, field: string): void {
  const reasons = [...check.files.map((file) => file.refusal), check.refusal].filter((r): r is string => !!r);
  if (!reasons.length) return;
  throw new EngineError('validation', reasons.join('; '), {
    issues: reasons.map((message) => ({ path: field, message })),
  });
}

const asAudioFile = async (path: string): Promise<AudioFile> => ({
  name: basename(path),
  blob: await openAsBlob(path),
});

export function voiceHandlers(parts: AreaParts): VoiceHandlers {
  const tenant = (profileId: string | undefined) => new TenantCalls(parts, profileId);
  const voices = async (t: TenantCalls) => new VoiceApi(await t.client(), t.scope(), parts.services.log);

  return {
    'mentors.voice': async ({ profileId, mentor: ref }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        return toVoice(await (await voices(t)).mentorVoice(uniqueId));
      });
    },

    'mentors.setVoice': async ({ profileId, mentor: ref, provider, name }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        const answer = await (await voices(t)).setMentorVoice(uniqueId, provider, provider === 'default' ? null : name);
        t.emit('mentors.voiceChanged', { profileId: t.profileId, mentor: uniqueId });
        return toVoice(answer);
      });
    },

    'mentors.speak': async ({ profileId, mentor: ref, text }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        const { mime, audio } = await (await voices(t)).speak(uniqueId, text);
        return { mime, audio: Buffer.from(audio).toString('base64'), bytes: audio.length };
      });
    },

    'voices.elevenlabs': async (input) => {
      const t = tenant(input?.profileId);
      return t.explained({}, async () => ({ voices: (await (await voices(t)).elevenLabsVoices()).map(toElevenLabs) }));
    },

    'voices.addElevenlabs': async ({ profileId, name, paths }) => {
      refuseBad(await inspectAudio(paths, 'voice-samples'), 'paths');
      const t = tenant(profileId);
      return t.explained({}, async () => {
        const files = await Promise.all(paths.map(asAudioFile));
        try {
          return toElevenLabs(await (await voices(t)).addElevenLabsVoice(name, files));
        } finally {
          t.emit('voices.changed', { profileId: t.profileId });
        }
      });
    },

    'voices.deleteElevenlabs': async ({ profileId, name }) => {
      const t = tenant(profileId);
      return t.explained({}, async () => {
        await (await voices(t)).deleteElevenLabsVoice(name);
        t.emit('voices.changed', { profileId: t.profileId });
        return { ok: true as const };
      });
    },

    'audio.inspect': ({ paths, purpose }) => inspectAudio(paths, purpose),

    'audio.transcribe': async ({ profileId, path }) => {
      refuseBad(await inspectAudio([path], 'transcribe'), 'path');
      const t = tenant(profileId);
      return t.explained({}, async () => ({ text: await (await voices(t)).transcribe(await asAudioFile(path)) }));
    },
  };
}
