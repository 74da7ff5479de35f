/**
 * The platform's voice endpoints under `/api/ai-mentor/orgs/{org}/users/{user_id}/`, answers validated: a mentor's
 * custom voice and speech in it, the tenant's ElevenLabs voices (samples sent as multipart `files`) and
 * audio-to-text (multipart `file`).
 */
import { z } from 'zod';
import type { PlatformClient } from '../platform';
import type { Log } from '../log';
import type { Scope } from './resolve';
import { parseAnswer } from './shapes';

const text = z.string().nullish();

/** `MentorCustomVoiceResponse`. */
export const ApiMentorVoice = z.object({ voice_provider: z.string(), voice_name: z.string().nullable() });
export type ApiMentorVoice = z.infer<typeof ApiMentorVoice>;

/** `ElevenlabsCustomVoiceResponse`. */
export const ApiElevenLabsVoice = z.object({
  name: z.string(),
  owner_student: text,
  language: text,
  is_premade: z.boolean().nullish(),
  description: text,
  sample_audio_url: text,
});
export type ApiElevenLabsVoice = z.infer<typeof ApiElevenLabsVoice>;

/** The spec's example of the list nests the voices in a second array; its schema does not. Both are read. */
const ApiElevenLabsVoices = z
  .array(z.union([ApiElevenLabsVoice, z.array(ApiElevenLabsVoice)]))
  .transform((items) => items.flat());

export interface AudioFile {
  name: string;
  blob: Blob;
}

export class VoiceApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
    private readonly log: Log,
  ) {}

  private get user() {
    return { org: this.scope.org, user_id: this.scope.username };
  }

  async mentorVoice(mentor: string): Promise<ApiMentorVoice> {
    const { data } = await this.client.api.GET(
      '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/custom-voice/',
      { params: { path: { ...this.user, mentor } } },
    );
    return parseAnswer(ApiMentorVoice, data, `the custom voice of mentor '${mentor}'`, this.log);
  }

  async setMentorVoice(mentor: string, provider: string, name: string | null): Promise<ApiMentorVoice> {
    const { data } = await this.client.api.POST(
      '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/custom-voice/',
      { params: { path: { ...this.user, mentor } }, body: { voice_provider: provider, voice_name: name } },
    );
    return parseAnswer(ApiMentorVoice, data, `the custom voice of mentor '${mentor}'`, this.log);
  }

  /** Speech in the mentor's custom voice: the audio and its type as answered. */
  async speak(mentor: string, words: string): Promise<{ mime: string; audio: Uint8Array }> {
    const { data, response } = await this.client.api.POST(
      '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/custom-voice-tts/',
      { params: { path: { ...this.user, mentor } }, body: { text: words }, parseAs: 'arrayBuffer' },
    );
    const mime = (response.headers.get('content-type') ?? '').split(';')[0]!.trim() || 'audio/mpeg';
    return { mime, audio: new Uint8Array(data as ArrayBuffer) };
  }

  async elevenLabsVoices(): Promise<ApiElevenLabsVoice[]> {
    const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/elevenlabs-voice/', {
      params: { path: this.user },
    });
    return parseAnswer(ApiElevenLabsVoices, data, 'the ElevenLabs voices', this.log);
  }

  async addElevenLabsVoice(name: string, files: AudioFile[]): Promise<ApiElevenLabsVoice> {
    const { data } = await this.client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/elevenlabs-voice/', {
      params: { path: this.user },
      body: { name, files: [] },
      bodySerializer: () => {
        const form = new FormData();
        form.set('name', name);
        for (const file of files) form.append('files', file.blob, file.name);
        return form;
      },
    });
    return parseAnswer(ApiElevenLabsVoice, data, `the new ElevenLabs voice '${name}'`, this.log);
  }

  async deleteElevenLabsVoice(name: string): Promise<void> {
    await this.client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/elevenlabs-voice/{voice_name}/', {
      params: { path: { ...this.user, voice_name: name } },
      parseAs: 'text',
    });
  }

  async transcribe(file: AudioFile): Promise<string> {
    const { data } = await this.client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/audio-to-text/', {
      params: { path: this.user },
      body: { file: '' },
      bodySerializer: () => {
        const form = new FormData();
        form.set('file', file.blob, file.name);
        return form;
      },
    });
    return parseAnswer(z.object({ text: z.string() }), data, 'the transcript', this.log).text;
  }
}
