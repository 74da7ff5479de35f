/**
 * The voices the sandbox platform offers mentors (`voices/`, read-only, the spec's `Voice`): the same for every
 * tenant, filtered by `provider` and `search`. A mentor's `openai_voice` and `google_voice` settings name one by id.
 */
import type { Backend } from './backends';

type Row = Record<string, unknown>;

const voice = (id: number, name: string, provider: string, language: string, description: string): Row => ({
  id,
  name,
  provider,
  language,
  description,
  audio_url: `https://public.storage/iblm-public/audio/${provider}-${name.toLowerCase()}.mp3`,
});

export const VOICE_CATALOGUE: Row[] = [
  voice(1, 'Alloy', 'openai', 'en-US', 'A versatile, general-purpose voice'),
  voice(2, 'Echo', 'openai', 'en-US', 'A baritone voice with a lower pitch'),
  voice(3, 'Nova', 'openai', 'en-US', 'A bright, energetic voice'),
  voice(4, 'Shimmer', 'openai', 'en-US', 'A soft, gentle voice'),
  voice(5, 'en-US-Neural2-D', 'google', 'English (US)', 'A deep male voice'),
  voice(6, 'en-US-Neural2-F', 'google', 'English (US)', 'A clear female voice'),
  voice(7, 'en-GB-Neural2-B', 'google', 'English (UK)', 'A British male voice'),
  voice(8, 'Annie', 'elevenlabs', 'en', 'Warm, clear narration'),
];

export const voiceCatalogueBackend: Backend = {
  auth: { read: 'user', write: 'admin' },
  missing: 'Voice option not found',
  list: (_org, query) => {
    const provider = typeof query.provider === 'string' ? query.provider : '';
    const search = typeof query.search === 'string' ? query.search.toLowerCase() : '';
    return VOICE_CATALOGUE.filter(
      (row) =>
        (!provider || row.provider === provider) &&
        (!search || ['name', 'language', 'description'].some((f) => String(row[f]).toLowerCase().includes(search))),
    );
  },
  get: (_org, id) => VOICE_CATALOGUE.find((row) => String(row.id) === id) ?? null,
};
