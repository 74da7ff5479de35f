import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Log = (line: string) => void;

/** Removes credentials from anything about to be logged: Authorization values and key-like query parameters. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/(authorization["']?\s*[:=]\s*["']?)(Api-Key|Api-Token|Token|Bearer)?\s*[^"',\s}]+/gi, '$1$2 [redacted]')
    .replace(/([?&](?:token|key|api_key)=)[^&\s"']+/gi, '$1[redacted]');
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

/** Appends redacted lines to `<dataDir>/logs/engine.log`; also echoes to stderr when MENTOR_ADMIN_DEBUG is set. */
export function createFileLog(dataDir: string, env: NodeJS.ProcessEnv): Log {
  const dir = join(dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'engine.log');
  return (line) => {
    const safe = `${new Date().toISOString()} ${redact(line)}\n`;
    try {
      appendFileSync(file, safe);
    } catch {
      // Logging must never break the app.
    }
    if (env.MENTOR_ADMIN_DEBUG) process.stderr.write(safe);
  };
}
