/** Keeping secrets out of logs: header redaction plus a last-line-of-defence scrub of known credentials. */

export type Logger = (line: string) => void;

type HeadersInit = ConstructorParameters<typeof Headers>[0];

export const REDACTED = '[REDACTED]';

const SENSITIVE_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-csrftoken',
]);

/** Schemes are not secret and tell a reader which auth form was used, so they survive redaction. */
const KNOWN_SCHEMES = new Set(['api-key', 'api-token', 'token', 'bearer', 'basic']);

/** A plain object of the headers, safe to log: credentials replaced by [REDACTED], the auth scheme kept. */
export function redactHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of headers instanceof Headers ? headers : new Headers(headers)) {
    safe[name] = SENSITIVE_HEADERS.has(name) ? redactValue(name, value) : value;
  }
  return safe;
}

function redactValue(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') {
    const scheme = value.trim().split(/\s+/, 1)[0] ?? '';
    if (KNOWN_SCHEMES.has(scheme.toLowerCase()) && value.trim() !== scheme) return `${scheme} ${REDACTED}`;
  }
  return REDACTED;
}

/** Wraps a logger so that none of the given secrets can appear in a line, whatever produced it. */
export function scrubSecrets(log: Logger | undefined, secrets: readonly string[]): Logger | undefined {
  if (!log) return undefined;
  // Very short values would mangle ordinary words; real keys and tokens are long.
  const needles = secrets.filter((secret) => secret.length >= 4);
  if (needles.length === 0) return log;
  return (line) => {
    let text = line;
    // Looked for first: most lines carry no secret, and splitting each of them cost more than the search.
    for (const secret of needles) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    log(text);
  };
}
