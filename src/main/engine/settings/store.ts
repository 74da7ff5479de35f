import type { z } from 'zod';
import { Settings, SettingsPatch } from '../../../shared/contract';
import type { Db } from '../store';
import { DEFAULTS } from './settings';

/** Application settings, one JSON value per key; unknown or malformed stored values fall back to defaults. */
export class SettingsStore {
  constructor(private readonly db: Db) {}

  get(): Settings {
    const rows = this.db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
    const stored = Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
    const merged = { ...DEFAULTS, ...stored };
    const parsed = Settings.safeParse(merged);
    return parsed.success ? parsed.data : DEFAULTS;
  }

  set(patch: z.input<typeof SettingsPatch>): Settings {
    const values = SettingsPatch.parse(patch);
    const upsert = this.db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) {
        if (value !== undefined) upsert.run(key, JSON.stringify(value));
      }
    })();
    return this.get();
  }
}
