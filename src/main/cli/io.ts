import type { Readable, Writable } from 'node:stream';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** A wrong command line: exit code 2 with the message and a hint at `--help`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Prints for people or, with --json, one JSON object per line. */
export class Output {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** One record: a JSON line, or the human text. */
  record(value: unknown, human: string): void {
    this.io.stdout.write(this.json ? `${JSON.stringify(value)}\n` : `${human}\n`);
  }

  /** Human-only text (progress, tables); silent with --json so stdout stays parseable. */
  text(line: string): void {
    if (!this.json) this.io.stdout.write(`${line}\n`);
  }

  /** Text exactly as given (a CSV document), whatever the mode. */
  raw(text: string): void {
    this.io.stdout.write(text);
  }

  error(message: string): void {
    this.io.stderr.write(`mentor-admin: ${message}\n`);
  }
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
