/**
 * A mentor's Voice tab in browser mode, on a real engine and sandbox: an ElevenLabs voice is added from a recording
 * (a text file is refused before upload), made the mentor's voice (the platform agrees), "Listen" plays the speech
 * the platform made in an <audio> element (a real WAV, decoded by Chromium under the app's CSP), audio-to-text reads
 * it back, a PDF is refused before upload and the platform's own refusal is shown in its words; the voice is deleted
 * after asking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { silentWav } from '../helpers/audio';
import { call, sandbox } from '../helpers/sandbox';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: { unique_id: string };
const userPath = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const wav = (name: string, bytes: Uint8Array) => ({ name, mimeType: 'audio/wav', buffer: Buffer.from(bytes) });

beforeAll(async () => {
  server = await sandbox();
  mentor = (await call(server, 'POST', userPath(), { json: { name: 'Speaking Coach' } })).body as { unique_id: string };
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor page: voice', () => {
  it('adds a voice from a recording, makes it the mentor’s, plays its speech and reads it back as text', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor.unique_id}`);
    await page.getByRole('tab', { name: 'Voice' }).click();
    const listen = page.getByRole('region', { name: 'Listen' });
    // No custom voice yet: the platform could only refuse, so Listen waits, saying why.
    const listenButton = listen.getByRole('button', { name: 'Listen' });
    await visible(listen.getByText('choose an ElevenLabs voice above and save it first'));
    expect(await listenButton.isDisabled()).toBe(true);
    expect(await listenButton.getAttribute('aria-describedby')).toBe(
      await listen.getByText('choose an ElevenLabs voice above and save it first').getAttribute('id'),
    );

    // A voice from samples: a text file is refused here, a recording is sent.
    const voices = page.getByRole('region', { name: 'ElevenLabs voices', exact: true });
    await voices.getByRole('button', { name: 'Add a voice…' }).click();
    const form = page.getByRole('form', { name: 'Add a voice' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Professor Ada');
    await page.getByLabel('Voice samples').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('lecture notes, not a recording'),
    });
    await visible(form.getByText('notes.txt is a text file, not an audio file'));
    expect(await form.getByRole('button', { name: 'Add voice' }).isDisabled()).toBe(true);
    await page.getByLabel('Voice samples').setInputFiles(wav('ada.wav', silentWav(70)));
    await visible(form.getByText('ada.wav'));
    await form.getByRole('button', { name: 'Add voice' }).click();
    await visible(voices.getByRole('cell', { name: 'Professor Ada', exact: true }));
    const onPlatform = (await call(server, 'GET', `${userPath()}elevenlabs-voice/`)).body as { name: string }[];
    expect(onPlatform.map((voice) => voice.name)).toContain('Professor Ada');
    await dismissNotifications(page);

    // Make it the mentor's voice.
    const voice = page.getByRole('region', { name: 'Mentor voice' });
    await voice.getByLabel('Custom voice', { exact: true }).click();
    await page.getByRole('option', { name: 'Professor Ada', exact: true }).click();
    await voice.getByRole('button', { name: 'Save voice' }).click();
    await expect
      .poll(async () => (await call(server, 'GET', `${userPath()}mentors/${mentor.unique_id}/custom-voice/`)).body)
      .toEqual({ voice_provider: 'elevenlabs', voice_name: 'Professor Ada' });
    await dismissNotifications(page);

    // Listen: with the voice saved, the speech plays in the page.
    await expect.poll(() => listenButton.isEnabled()).toBe(true);
    expect(await listen.getByText('choose an ElevenLabs voice above and save it first').count()).toBe(0);
    const sentence = 'Plants make sugar from light and water';
    await listen.getByRole('textbox', { name: 'Sentence' }).fill(sentence);
    await listen.getByRole('button', { name: 'Listen' }).click();
    const audio = page.getByTestId('voice-audio');
    await visible(audio);
    expect(await audio.getAttribute('src')).toMatch(/^blob:/);
    const played = await audio.evaluate(
      (element: {
        readyState: number;
        duration: number;
        error: { code: number } | null;
        addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
      }) =>
        new Promise<{ duration: number; error: number | null }>((resolve) => {
          const done = () => resolve({ duration: element.duration, error: element.error?.code ?? null });
          if (element.readyState >= 1) done();
          else {
            element.addEventListener('loadedmetadata', done, { once: true });
            element.addEventListener('error', done, { once: true });
            // Media the page may not load (a CSP without media-src blob:) fires nothing: say so rather than hang.
            setTimeout(done, 10_000);
          }
        }),
    );
    expect(played.error).toBeNull();
    // One tone of 0.28 s per word.
    expect(played.duration).toBeCloseTo(7 * 0.28, 1);

    // Audio to text: the platform's speech reads back as its sentence.
    const spoken = await fetch(`${server.url}${userPath()}mentors/${mentor.unique_id}/custom-voice-tts/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'What is a mitochondrion?' }),
    });
    const toText = page.getByRole('region', { name: 'Audio to text' });
    await page
      .getByLabel('Audio file to transcribe')
      .setInputFiles(wav('question.wav', new Uint8Array(await spoken.arrayBuffer())));
    await visible(toText.getByTestId('transcript').getByText('What is a mitochondrion?'));

    // A PDF never leaves; bytes of no known format go with a warning and come back refused in the platform's words.
    await page.getByLabel('Audio file to transcribe').setInputFiles({
      name: 'slides.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 slides'),
    });
    await visible(toText.getByText('slides.pdf is a PDF document, not an audio file'));
    expect(await toText.getByTestId('transcript').count()).toBe(0);
    await page.getByLabel('Audio file to transcribe').setInputFiles({
      name: 'memo.amr',
      mimeType: 'audio/amr',
      buffer: Buffer.from([1, 2, 3, 4, 0, 0, 9, 200, 7, 7, 7, 7, 0, 1, 2, 3]),
    });
    await visible(toText.getByText(/does not recognise the format of memo\.amr/));
    await visible(toText.getByText(/Invalid audio file or processing error/));

    // Delete the voice after asking.
    await voices.getByRole('button', { name: 'Delete voice Professor Ada' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete voice' });
    await dialog.getByRole('button', { name: 'Delete voice' }).click();
    await expect.poll(() => voices.getByRole('cell', { name: 'Professor Ada', exact: true }).count()).toBe(0);
    const after = (await call(server, 'GET', `${userPath()}elevenlabs-voice/`)).body as { name: string }[];
    expect(after.map((v) => v.name)).not.toContain('Professor Ada');
  });

  it("picks a mentor's OpenAI voice setting by name from the platform's voice catalogue", async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor.unique_id}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const form = page.getByTestId('mentor-settings').getByRole('form', { name: 'Mentor settings' });
    await visible(form);
    const field = form.getByLabel('OpenAI voice', { exact: true });
    await field.scrollIntoViewIfNeeded();
    await field.click();
    await page.getByRole('option', { name: /Nova/ }).click();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await visible(form.getByText('Saved.'));
    // The settings read (MentorSettingsPublic) does not answer the voices; the platform's store holds what was saved.
    await expect
      .poll(() => {
        const row = server.db.prepare('SELECT settings FROM mentors WHERE unique_id = ?').get(mentor.unique_id) as {
          settings: string;
        };
        return (JSON.parse(row.settings) as { openai_voice?: unknown }).openai_voice;
      })
      .toBe(3);
    // Nova is voice 3 of the sandbox's catalogue (`voices/3/`).
    const nova = (await call(server, 'GET', `${userPath()}voices/3/`)).body as { name: string };
    expect(nova.name).toBe('Nova');
  });
});
