import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_DIR_NAME = 'Mentor Admin';

/**
 * The per-user data folder, the same one Electron's `app.getPath('userData')` uses, so the app, browser mode and
 * the CLI share tenants and jobs. `MENTOR_ADMIN_HOME` overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  if (env.MENTOR_ADMIN_HOME) return env.MENTOR_ADMIN_HOME;
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_DIR_NAME);
}
