/**
 * Contract tests of the sandbox's voice calls: the voice catalogue (`voices/`), ElevenLabs voices (list, create from
 * samples, delete), a mentor's custom voice, speech in it (`custom-voice-tts/`, a real WAV) and `audio-to-text/`.
 * JSON answers are checked against the vendor spec; errors carry the spec catalogue's messages; one tenant never
 * sees or changes another's voices or mentors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { SANDBOX_TRANSCRIPTS } from '../../src/server/areas/mentors/speech';
import { sniffAudio, wavSeconds } from '../../src/shared/audio';
import { silentWav } from '../helpers/audio';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let base: string;
let otherBase: string;
let studentBase: string;
let mentor: string;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}';
type Row = Record<string, unknown>;

const form = (fields: Record<string, string>, files: { field: string; name: string; bytes: Uint8Array }[]) => {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  for (const file of files) body.append(file.field, new Blob([file.bytes]), file.name);
  return body;
};

beforeAll(async () => {
  server = await sandbox();
  base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}`;
  otherBase = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}`;
  studentBase = `/api/ai-mentor/orgs/${server.org}/users/${server.studentUser}`;
  const made = await call(server, 'POST', `${base}/`, { json: { name: 'Voice Tutor' } });
  mentor = (made.body as { unique_id: string }).unique_id;
});

describe('sandbox: voices/', () => {
  it('lists the voice catalogue in DRF pages, filters by provider and reads one; 404 for an unknown id', async () => {
    const all = await call(server, 'GET', `${base}/voices/`);
    expect(all.status).toBe(200);
    expectSpecValid('get', `${SPEC}/voices/`, 200, all.body);
    const openai = (await call(server, 'GET', `${base}/voices/?provider=openai`)).body as { results: Row[] };
    expect(openai.results.length).toBeGreaterThan(0);
    expect(openai.results.every((voice) => voice.provider === 'openai')).toBe(true);
    const one = await call(server, 'GET', `${base}/voices/${String(openai.results[0]!.id)}/`);
    expectSpecValid('get', `${SPEC}/voices/{id}/`, 200, one.body);
    expect((await call(server, 'GET', `${base}/voices/9999/`)).status).toBe(404);
  });
});

describe('sandbox: ElevenLabs voices and a mentor custom voice', () => {
  it('creates a voice from samples, lists it with the premade ones, refuses bad samples, deletes it', async () => {
    const sample = { field: 'files', name: 'me.wav', bytes: silentWav(2) };
    const made = await call(server, 'POST', `${base}/elevenlabs-voice/`, { form: form({ name: 'Coach' }, [sample]) });
    expect(made.status).toBe(200);
    expectSpecValid('post', `${SPEC}/elevenlabs-voice/`, 200, made.body);
    expect(made.body).toMatchObject({ name: 'Coach', owner_student: server.user, is_premade: false });

    const listed = await call(server, 'GET', `${base}/elevenlabs-voice/`);
    expectSpecValid('get', `${SPEC}/elevenlabs-voice/`, 200, listed.body);
    const names = (listed.body as Row[]).map((voice) => `${String(voice.name)}:${String(voice.is_premade)}`);
    expect(names).toEqual(expect.arrayContaining(['Coach:false', 'Annie:true']));

    const again = await call(server, 'POST', `${base}/elevenlabs-voice/`, { form: form({ name: 'Coach' }, [sample]) });
    expect(again).toMatchObject({ status: 400, body: { detail: 'Invalid data, credentials not found, or API error' } });
    const text = { field: 'files', name: 'notes.txt', bytes: new TextEncoder().encode('not audio at all, just text') };
    const notAudio = await call(server, 'POST', `${base}/elevenlabs-voice/`, { form: form({ name: 'X' }, [text]) });
    expect(notAudio.status).toBe(400);
    const big = { field: 'files', name: 'big.wav', bytes: silentWav((11 * 1024 * 1024) / 16000 + 1) };
    const tooBig = await call(server, 'POST', `${base}/elevenlabs-voice/`, { form: form({ name: 'Big' }, [big]) });
    expect(tooBig).toMatchObject({
      status: 400,
      body: { detail: 'Invalid data, credentials not found, or API error' },
    });
    const noFiles = await call(server, 'POST', `${base}/elevenlabs-voice/`, { form: form({ name: 'Y' }, []) });
    expect(noFiles).toMatchObject({ status: 400, body: { files: ['No file was submitted.'] } });

    // Another tenant neither sees nor deletes it.
    const theirs = await call(server, 'GET', `${otherBase}/elevenlabs-voice/`, { key: server.otherOrg.apiKey });
    expect((theirs.body as Row[]).map((voice) => voice.name)).not.toContain('Coach');
    const theirDelete = await call(server, 'DELETE', `${otherBase}/elevenlabs-voice/Coach/`, {
      key: server.otherOrg.apiKey,
    });
    expect(theirDelete).toMatchObject({ status: 400, body: { detail: 'Credentials not found or API error' } });

    expect((await call(server, 'DELETE', `${base}/elevenlabs-voice/Coach/`)).status).toBe(200);
    expect((await call(server, 'DELETE', `${base}/elevenlabs-voice/Coach/`)).status).toBe(400);
    expect((await call(server, 'DELETE', `${base}/elevenlabs-voice/Annie/`)).status).toBe(400);
  });

  it("sets a mentor's custom voice, speaks a real WAV in it, and goes back to the default voice", async () => {
    const path = `${base}/mentors/${mentor}/custom-voice/`;
    const first = await call(server, 'GET', path);
    expectSpecValid('get', `${SPEC}/mentors/{mentor}/custom-voice/`, 200, first.body);
    expect(first.body).toEqual({ voice_provider: 'default', voice_name: 'default' });

    const tts = `${base}/mentors/${mentor}/custom-voice-tts/`;
    const unset = await call(server, 'POST', tts, { json: { text: 'Hello there' } });
    expect(unset).toMatchObject({
      status: 400,
      body: { detail: 'Invalid data, credentials not found, or custom voice not set' },
    });

    const missing = await call(server, 'POST', path, { json: { voice_provider: 'elevenlabs', voice_name: 'Nobody' } });
    expect(missing).toMatchObject({ status: 400, body: { detail: 'Invalid data or voice not found' } });
    const set = await call(server, 'POST', path, { json: { voice_provider: 'elevenlabs', voice_name: 'Annie' } });
    expect(set.status).toBe(200);
    expectSpecValid('post', `${SPEC}/mentors/{mentor}/custom-voice/`, 200, set.body);
    expect((await call(server, 'GET', path)).body).toEqual({ voice_provider: 'elevenlabs', voice_name: 'Annie' });

    const res = await fetch(server.url + tts, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'one two three four five six' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const wav = new Uint8Array(await res.arrayBuffer());
    expect(sniffAudio(wav)).toMatchObject({ kind: 'audio', format: 'WAV' });
    // One tone of 0.28 s per word: the length follows the text.
    expect(wavSeconds(wav)).toBeCloseTo(6 * 0.28, 1);
    const longer = await fetch(server.url + tts, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'one two three four five six seven eight nine ten' }),
    });
    expect(wavSeconds(new Uint8Array(await longer.arrayBuffer()))).toBeGreaterThan(wavSeconds(wav)!);
    expect((await call(server, 'POST', tts, { json: { text: '   ' } })).status).toBe(400);

    // Tenant isolation: another tenant cannot read or set this mentor's voice.
    const other = `${otherBase}/mentors/${mentor}/custom-voice/`;
    expect(await call(server, 'GET', other, { key: server.otherOrg.apiKey })).toMatchObject({
      status: 404,
      body: { detail: 'Mentor or student not found' },
    });
    // A learner may not change it.
    const byStudent = await call(server, 'POST', `${studentBase}/mentors/${mentor}/custom-voice/`, {
      key: server.studentKey,
      json: { voice_provider: 'default' },
    });
    expect(byStudent.status).toBe(403);

    const reset = await call(server, 'POST', path, { json: { voice_provider: 'default', voice_name: null } });
    expect(reset.body).toEqual({ voice_provider: 'default', voice_name: 'default' });
  });
});

describe('sandbox: audio-to-text/', () => {
  it('reads back the text of speech it made, a fixed sentence for other audio, and refuses what is not audio', async () => {
    await call(server, 'POST', `${base}/mentors/${mentor}/custom-voice/`, {
      json: { voice_provider: 'elevenlabs', voice_name: 'Annie' },
    });
    const res = await fetch(`${server.url}${base}/mentors/${mentor}/custom-voice-tts/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Photosynthesis turns light into sugar.' }),
    });
    const spoken = new Uint8Array(await res.arrayBuffer());
    const path = `${base}/audio-to-text/`;
    const heard = await call(server, 'POST', path, {
      form: form({}, [{ field: 'file', name: 's.wav', bytes: spoken }]),
    });
    expect(heard.status).toBe(200);
    expectSpecValid('post', `${SPEC}/audio-to-text/`, 200, heard.body);
    expect(heard.body).toEqual({ text: 'Photosynthesis turns light into sugar.' });

    const other = await call(server, 'POST', path, {
      form: form({}, [{ field: 'file', name: 'q.wav', bytes: silentWav(1) }]),
    });
    expect(SANDBOX_TRANSCRIPTS).toContain((other.body as { text: string }).text);

    const pdf = new TextEncoder().encode('%PDF-1.4 not audio');
    const refused = await call(server, 'POST', path, {
      form: form({}, [{ field: 'file', name: 'a.pdf', bytes: pdf }]),
    });
    expect(refused).toMatchObject({ status: 400, body: { detail: 'Invalid audio file or processing error' } });
    expect((await call(server, 'POST', path, { form: form({}, []) })).status).toBe(400);
  });
});
