/** `mentor-admin mentors voice|tts|voices|audio-to-text`: a mentor's voice, speech in it, voices, transcripts. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AudioCheck } from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Globals } from './command';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';

export const MENTOR_VOICE_HELP = `Voice:
  mentors voice MENTOR [--set VOICE | --default]
      the mentor's custom voice; --set makes an ElevenLabs voice its voice, --default the platform's default
  mentors tts MENTOR "TEXT" --out FILE   speech in the mentor's custom voice, written to FILE
  mentors voices [list]                  the tenant's ElevenLabs voices and the premade ones
  mentors voices add NAME FILE...        a new ElevenLabs voice from recordings (less than 11 MiB in all)
  mentors voices delete NAME --yes       delete one of the tenant's ElevenLabs voices
  mentors audio-to-text FILE             the platform's transcript of a recording
  (the voice catalogue that a mentor's Google and OpenAI voice settings name: get voices)`;

type Verb = (engine: Engine, args: string[], out: Output, globals: Globals) => Promise<number>;

const tenantOf = async (engine: Engine, globals: Globals) => {
  const profileId = await profileIdOf(engine, globals);
  return profileId ? { profileId } : {};
};

/** Warnings about audio files, on stderr before they are sent (stdout stays the answer). */
function warn(out: Output, check: AudioCheck) {
  for (const warning of [...check.files.map((file) => file.warning), check.warning]) {
    if (warning) out.error(`warning: ${warning}`);
  }
}

export const MENTOR_VOICE_VERBS: Record<string, Verb> = {
  async voice(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, { set: { type: 'string' }, default: { type: 'boolean' } });
    const [mentor] = positionals;
    if (!mentor || positionals.length > 1) throw new UsageError('mentors voice needs MENTOR');
    if (values.set && values.default) throw new UsageError('mentors voice takes --set or --default, not both');
    const input = { ...(await tenantOf(engine, globals)), mentor };
    const voice = values.set
      ? await engine.invoke('mentors.setVoice', { ...input, provider: 'elevenlabs', name: values.set })
      : values.default
        ? await engine.invoke('mentors.setVoice', { ...input, provider: 'default', name: null })
        : await engine.invoke('mentors.voice', input);
    const words = voice.provider === 'elevenlabs' ? `ElevenLabs voice '${voice.name}'` : 'the default voice';
    out.record({ mentor, voice }, `'${mentor}' speaks with ${words}`);
    return 0;
  },

  async tts(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, { out: { type: 'string' } });
    const [mentor, text] = positionals;
    if (!mentor || text === undefined || positionals.length > 2)
      throw new UsageError('mentors tts needs MENTOR "TEXT"');
    if (!values.out) throw new UsageError('mentors tts needs --out FILE');
    const speech = await engine.invoke('mentors.speak', { ...(await tenantOf(engine, globals)), mentor, text });
    const path = resolve(values.out);
    writeFileSync(path, Buffer.from(speech.audio, 'base64'));
    out.record(
      { mentor, file: path, mime: speech.mime, bytes: speech.bytes },
      `Wrote ${speech.bytes} bytes of ${speech.mime} to ${path}`,
    );
    return 0;
  },

  async voices(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, { yes: { type: 'boolean' } });
    const [action = 'list', ...rest] = positionals;
    const tenant = await tenantOf(engine, globals);
    if (action === 'list') {
      const { voices } = await engine.invoke('voices.elevenlabs', tenant);
      for (const voice of voices) {
        out.record(
          voice,
          `${voice.name}\t${voice.premade ? 'premade' : `made by ${voice.owner ?? '?'}`}\t${voice.language ?? ''}`,
        );
      }
      return 0;
    }
    if (action === 'add') {
      const [name, ...files] = rest;
      if (!name || !files.length) throw new UsageError('mentors voices add needs NAME FILE...');
      const paths = files.map((file) => resolve(file));
      warn(out, await engine.invoke('audio.inspect', { paths, purpose: 'voice-samples' }));
      const voice = await engine.invoke('voices.addElevenlabs', { ...tenant, name, paths });
      out.record(voice, `Added the ElevenLabs voice '${voice.name}'`);
      return 0;
    }
    if (action === 'delete') {
      const [name] = rest;
      if (!name || rest.length > 1) throw new UsageError('mentors voices delete needs NAME');
      if (!values.yes)
        throw new UsageError('mentors voices delete needs --yes: mentors that speak with it lose their voice');
      await engine.invoke('voices.deleteElevenlabs', { ...tenant, name });
      out.record({ name, deleted: true }, `Deleted the ElevenLabs voice '${name}'`);
      return 0;
    }
    throw new UsageError(`mentors voices takes list, add or delete (got '${action}')`);
  },

  async 'audio-to-text'(engine, args, out, globals) {
    const { positionals } = commandArgs(args, {});
    const [file] = positionals;
    if (!file || positionals.length > 1) throw new UsageError('mentors audio-to-text needs FILE');
    const path = resolve(file);
    warn(out, await engine.invoke('audio.inspect', { paths: [path], purpose: 'transcribe' }));
    const { text } = await engine.invoke('audio.transcribe', { ...(await tenantOf(engine, globals)), path });
    out.record({ file: path, text }, text);
    return 0;
  },
};
