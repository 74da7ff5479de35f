import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { Engine } from '../engine';
import type { CliIo, Output } from './io';

/** The global options a command sees; `runCli` takes them out of its arguments. */
export interface Globals {
  profile?: string | undefined;
  /** The data folder the engine uses. */
  dataDir: string;
  /**
   * Work for once the command has answered and the engine has closed (its jobs stopped, the database released): a
   * process that takes a job over. A failure there is printed, and the exit status becomes 1.
   */
  afterClose(action: () => Promise<void>): void;
}

/** One area of the command line (`export`, `train` …): its own arguments in, the exit code out. */
export type Command = (engine: Engine, args: string[], out: Output, io: CliIo, globals: Globals) => Promise<number>;

/** A command's options and positional arguments; an unknown option is a usage error. */
export function commandArgs<const O extends ParseArgsOptionsConfig>(args: string[], options: O) {
  return parseArgs({ args, allowPositionals: true, options });
}

/** How a job ended, as the command that started it reports it: its summary (the last line) and whether it succeeded. */
export interface JobOutcome {
  summary: Record<string, unknown>;
  human: string;
  ok: boolean;
}
