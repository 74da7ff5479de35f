/**
 * Voice (issue 16): a mentor's custom voice (`mentors/{mentor}/custom-voice/`), hearing it (`custom-voice-tts/`), the
 * tenant's ElevenLabs voices (`elevenlabs-voice/`: list, create from audio samples, delete by name) and a test of
 * `audio-to-text/`. Audio files reach the engine as handles (`localPaths`); they are looked at before anything is
 * sent (`audio.inspect`): a file that is plainly not audio is refused, the spec's 11 MiB for a voice's samples too.
 */
import { z } from 'zod';
import { call, event, Ok } from './kit';
import { MentorRef } from './mentors';

const Tenant = { profileId: z.string().min(1).optional() };

/** The spec's `MentorCustomVoiceResponse`: `default`/`default`, or `elevenlabs` and a voice's name. */
export const MentorVoice = z.object({ provider: z.string(), name: z.string().nullable() });
export type MentorVoice = z.infer<typeof MentorVoice>;

/** The spec's `ElevenlabsCustomVoiceResponse`. */
export const ElevenLabsVoice = z.object({
  name: z.string(),
  owner: z.string().nullable(),
  language: z.string().nullable(),
  premade: z.boolean(),
  description: z.string().nullable(),
  sampleUrl: z.string().nullable(),
});
export type ElevenLabsVoice = z.infer<typeof ElevenLabsVoice>;

/** What the app makes of an audio file before sending it. */
export const AudioFileCheck = z.object({
  name: z.string(),
  bytes: z.number().int(),
  /** The format its bytes show (WAV, MP3…), or null when they match none known here. */
  format: z.string().nullable(),
  /** Why it is not sent (it is plainly not audio), or null. */
  refusal: z.string().nullable(),
  /** What the platform may still refuse (a format not recognised here), or null. */
  warning: z.string().nullable(),
  /** Its length, where the app can read it (PCM WAV). */
  seconds: z.number().nullable(),
});
export type AudioFileCheck = z.infer<typeof AudioFileCheck>;

export const AudioCheck = z.object({
  files: z.array(AudioFileCheck),
  totalBytes: z.number().int(),
  /** For a voice's samples: why they cannot be sent together (above 11 MiB in all), or null. */
  refusal: z.string().nullable(),
  /** For a voice's samples: shorter than the minute the spec asks for, when that can be measured. */
  warning: z.string().nullable(),
});
export type AudioCheck = z.infer<typeof AudioCheck>;

const Paths = z.array(z.string().min(1)).min(1, 'Choose at least one audio file').max(25);

export const mentorVoiceCalls = {
  'mentors.voice': call(MentorRef, MentorVoice, "A mentor's custom voice"),
  'mentors.setVoice': call(
    z
      .object({
        ...Tenant,
        mentor: z.string().min(1),
        /** `default` (the platform's voice) or `elevenlabs` with a voice's name. */
        provider: z.enum(['default', 'elevenlabs']),
        name: z.string().trim().min(1).nullable().default(null),
      })
      .strict()
      .refine((input) => input.provider === 'default' || !!input.name, {
        message: 'Choose an ElevenLabs voice',
        path: ['name'],
      }),
    MentorVoice,
    "Set a mentor's custom voice (an ElevenLabs voice) or put it back to the default voice",
  ),
  'mentors.speak': call(
    z
      .object({ ...Tenant, mentor: z.string().min(1), text: z.string().trim().min(1, 'Type something to hear') })
      .strict(),
    z.object({
      /** The audio's type as the platform answered it (the spec says MP3; the sandbox speaks WAV). */
      mime: z.string(),
      /** The audio, base64: the page plays it from a blob: URL. */
      audio: z.string(),
      bytes: z.number().int(),
    }),
    "Speech from text in the mentor's custom voice (`custom-voice-tts/`)",
  ),
  'voices.elevenlabs': call(
    z.object(Tenant).strict().optional(),
    z.object({ voices: z.array(ElevenLabsVoice) }),
    "The tenant's ElevenLabs voices and the premade ones",
  ),
  'voices.addElevenlabs': call(
    z
      .object({
        ...Tenant,
        name: z.string().trim().min(1, 'Name is required').max(255, 'Name is at most 255 characters'),
        paths: Paths,
      })
      .strict(),
    ElevenLabsVoice,
    'Create an ElevenLabs voice from audio samples',
    { localPaths: { paths: 'read' } },
  ),
  'voices.deleteElevenlabs': call(
    z.object({ ...Tenant, name: z.string().min(1) }).strict(),
    Ok,
    'Delete one of the tenant’s ElevenLabs voices',
  ),
  'audio.inspect': call(
    z.object({ paths: Paths, purpose: z.enum(['voice-samples', 'transcribe']) }).strict(),
    AudioCheck,
    'Look at audio files before they are sent: what they are, and what would be refused',
    { localPaths: { paths: 'read' } },
  ),
  'audio.transcribe': call(
    z.object({ ...Tenant, path: z.string().min(1) }).strict(),
    z.object({ text: z.string() }),
    'Send an audio file to the platform’s audio-to-text and answer its transcript',
    { localPaths: { path: 'read' } },
  ),
} as const;

export const mentorVoiceEvents = {
  /** A mentor's custom voice changed. */
  'mentors.voiceChanged': event(z.object({ profileId: z.string(), mentor: z.string() }), {
    invalidates: [{ call: 'mentors.voice', by: ['profileId', 'mentor'] }],
  }),
  /** An ElevenLabs voice was added or deleted. */
  'voices.changed': event(z.object({ profileId: z.string() }), {
    invalidates: [{ call: 'voices.elevenlabs', by: ['profileId'] }],
  }),
} as const;
