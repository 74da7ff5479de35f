import type { AreaDeps } from '../../area';
import { HttpError, notFound } from '../../http/errors';
import { BinaryBody, type RequestContext, type Router } from '../../http/router';
import type { MentorRow } from '../mentor-store';
import { sniffAudio, VOICE_SAMPLES_MAX_BYTES } from '../../../shared/audio';
import { MENTORS_BASE } from './crud';
import { speak, transcribe } from './speech';
import { findMentor } from './store';

/**
 * Voices (under `/api/ai-mentor/orgs/{org}/users/{user_id}/`): the tenant's ElevenLabs voices (`elevenlabs-voice/`
 * list, create from audio samples, delete by name; premade voices come with the platform), a mentor's custom voice
 * (`mentors/{mentor}/custom-voice/`), speech in that voice (`custom-voice-tts/`) and `audio-to-text/`.
 *
 * The sandbox speaks with tones: a WAV of one short tone per word, pitched by the voice's name and the word, whose
 * LIST/INFO comment carries the text. Its audio-to-text answers that comment for such a WAV (so speech made here
 * reads back as its text) and, for any other audio, one of a few fixed sentences chosen by the file's SHA-256.
 */

/** The spec's example names Annie as a premade voice; every tenant may use these. */
export const PREMADE_VOICES = [
  { name: 'Annie', language: 'en', description: 'Warm, clear narration' },
  { name: 'Rachel', language: 'en', description: 'Calm and friendly' },
  { name: 'Adam', language: 'en', description: 'Deep and steady' },
] as const;

// The catalogue's messages for these calls.
const INVALID_VOICE_DATA = 'Invalid data, credentials not found, or API error';
const DELETE_FAILED = 'Credentials not found or API error';
const VOICE_NOT_FOUND = 'Invalid data or voice not found';
const TTS_REFUSED = 'Invalid data, credentials not found, or custom voice not set';
const INVALID_AUDIO = 'Invalid audio file or processing error';
const MENTOR_OR_STUDENT = 'Mentor or student not found';

interface VoiceRow {
  name: string;
  owner: string;
  language: string;
  description: string;
}

const refused = (detail: string, errors: Record<string, string[]> = {}) =>
  new HttpError(400, detail, {}, { detail, ...errors });

const presentVoice = (row: VoiceRow) => ({
  name: row.name,
  owner_student: row.owner,
  language: row.language,
  is_premade: false,
  description: row.description,
  sample_audio_url: null,
});
const presentPremade = (voice: (typeof PREMADE_VOICES)[number]) => ({
  ...voice,
  owner_student: null,
  is_premade: true,
  sample_audio_url: null,
});

async function filesOf(form: FormData, field: string): Promise<{ name: string; bytes: Uint8Array }[]> {
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const value of form.getAll(field)) {
    if (typeof value === 'string') continue;
    files.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return files;
}

export function mentorVoiceRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const now = () => new Date().toISOString();

  const customVoiceOf = (org: string, name: string) =>
    db.prepare('SELECT * FROM elevenlabs_voices WHERE org = ? AND name = ?').get(org, name) as VoiceRow | undefined;
  const voiceExists = (org: string, name: string) =>
    PREMADE_VOICES.some((voice) => voice.name === name) || !!customVoiceOf(org, name);
  const mentorOr404 = (ctx: RequestContext): MentorRow => {
    const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
    if (!row) throw notFound(MENTOR_OR_STUDENT);
    return row;
  };
  const mentorVoice = (mentor: MentorRow) => {
    const row = db.prepare('SELECT provider, name FROM mentor_custom_voices WHERE mentor_id = ?').get(mentor.id) as
      { provider: string; name: string | null } | undefined;
    return { voice_provider: row?.provider ?? 'default', voice_name: row?.name ?? 'default' };
  };

  router.add(
    'GET',
    `${MENTORS_BASE}elevenlabs-voice/`,
    (ctx) => {
      const own = db.prepare('SELECT * FROM elevenlabs_voices WHERE org = ? ORDER BY id').all(ctx.params.org!);
      return { status: 200, body: [...(own as VoiceRow[]).map(presentVoice), ...PREMADE_VOICES.map(presentPremade)] };
    },
    { auth: 'user' },
  );

  router.add(
    'POST',
    `${MENTORS_BASE}elevenlabs-voice/`,
    async (ctx) => {
      const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'multipart/form-data') throw refused(INVALID_VOICE_DATA, { files: ['No file was submitted.'] });
      const form = await ctx.form();
      const name = String(form.get('name') ?? '').trim();
      const files = await filesOf(form, 'files');
      const errors: Record<string, string[]> = {};
      if (!name) errors.name = ['This field is required.'];
      else if (name.length > 255) errors.name = ['Ensure this field has no more than 255 characters.'];
      if (!files.length) errors.files = ['No file was submitted.'];
      if (Object.keys(errors).length) throw refused(INVALID_VOICE_DATA, errors);
      const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
      if (total >= VOICE_SAMPLES_MAX_BYTES) {
        throw refused(INVALID_VOICE_DATA, { files: ['The total size of the files should be smaller than 11 MiB.'] });
      }
      const notAudio = files.find((file) => sniffAudio(file.bytes).kind !== 'audio');
      if (notAudio) throw refused(INVALID_VOICE_DATA, { files: [`${notAudio.name} is not an audio file.`] });
      if (voiceExists(ctx.params.org!, name)) {
        throw refused(INVALID_VOICE_DATA, { name: ['A voice with this name already exists.'] });
      }
      const row = {
        org: ctx.params.org!,
        name,
        owner: ctx.caller!.username,
        language: String(form.get('language') ?? '').trim() || 'en',
        description: String(form.get('description') ?? '').trim(),
        sample_bytes: total,
        created_at: now(),
      };
      db.prepare(
        `INSERT INTO elevenlabs_voices (org, name, owner, language, description, sample_bytes, created_at)
         VALUES (@org, @name, @owner, @language, @description, @sample_bytes, @created_at)`,
      ).run(row);
      return { status: 200, body: presentVoice(row) };
    },
    { auth: 'user' },
  );

  router.add(
    'DELETE',
    `${MENTORS_BASE}elevenlabs-voice/{voice_name}/`,
    (ctx) => {
      const org = ctx.params.org!;
      const voice = customVoiceOf(org, ctx.params.voice_name!);
      // A premade voice, another tenant's or one that is not there: the platform's one refusal for this call.
      if (!voice) throw refused(DELETE_FAILED);
      if (ctx.caller!.role !== 'admin' && voice.owner !== ctx.caller!.username) throw refused(DELETE_FAILED);
      db.prepare('DELETE FROM elevenlabs_voices WHERE org = ? AND name = ?').run(org, voice.name);
      return { status: 200, body: { detail: 'Voice successfully deleted' } };
    },
    { auth: 'user' },
  );

  router.add('GET', `${MENTORS_BASE}mentors/{mentor}/custom-voice/`, (ctx) => ({
    status: 200,
    body: mentorVoice(mentorOr404(ctx)),
  }));

  router.add(
    'POST',
    `${MENTORS_BASE}mentors/{mentor}/custom-voice/`,
    async (ctx) => {
      const mentor = mentorOr404(ctx);
      const body = (await ctx.json().catch(() => null)) as Record<string, unknown> | null;
      const provider = typeof body?.voice_provider === 'string' ? body.voice_provider.trim() : '';
      const name = typeof body?.voice_name === 'string' ? body.voice_name.trim() : null;
      if (!provider) throw refused(VOICE_NOT_FOUND, { voice_provider: ['This field is required.'] });
      // "either using the default voice provider or Elevenlabs"
      if (provider === 'default') {
        db.prepare('DELETE FROM mentor_custom_voices WHERE mentor_id = ?').run(mentor.id);
      } else if (provider === 'elevenlabs') {
        if (!name || !voiceExists(ctx.params.org!, name)) throw refused(VOICE_NOT_FOUND);
        db.prepare(
          `INSERT INTO mentor_custom_voices (mentor_id, provider, name) VALUES (?, ?, ?)
           ON CONFLICT (mentor_id) DO UPDATE SET provider = excluded.provider, name = excluded.name`,
        ).run(mentor.id, provider, name);
      } else {
        throw refused(VOICE_NOT_FOUND, { voice_provider: [`"${provider}" is not a valid choice.`] });
      }
      return { status: 200, body: mentorVoice(mentor) };
    },
    { auth: 'admin' },
  );

  router.add('POST', `${MENTORS_BASE}mentors/{mentor}/custom-voice-tts/`, async (ctx) => {
    const mentor = mentorOr404(ctx);
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const body =
      type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded'
        ? Object.fromEntries((await ctx.form()).entries())
        : ((await ctx.json().catch(() => null)) as Record<string, unknown> | null);
    const text = typeof body?.text === 'string' ? body.text.trim() : '';
    if (!text) throw refused(TTS_REFUSED, { text: ['This field is required.'] });
    const voice = mentorVoice(mentor);
    // Speech needs the mentor's custom voice, and that voice must still be there.
    if (voice.voice_provider !== 'elevenlabs' || !voiceExists(ctx.params.org!, voice.voice_name)) {
      throw refused(TTS_REFUSED);
    }
    return { status: 200, body: new BinaryBody(speak(text, voice.voice_name), 'audio/wav') };
  });

  router.add('POST', `${MENTORS_BASE}audio-to-text/`, async (ctx) => {
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'multipart/form-data') throw refused(INVALID_AUDIO, { file: ['No file was submitted.'] });
    const [file] = await filesOf(await ctx.form(), 'file');
    if (!file) throw refused(INVALID_AUDIO, { file: ['No file was submitted.'] });
    if (sniffAudio(file.bytes).kind !== 'audio') throw refused(INVALID_AUDIO);
    return { status: 200, body: { text: transcribe(file.bytes) } };
  });
}
