/**
 * Messages between the main process and the engine's utility process. Pure: imported by both sides and tests.
 */
import type { BridgeResult } from '../../shared/contract';

/** Main → engine. */
export type ToEngine = { kind: 'call'; id: number; name: string; input: unknown } | { kind: 'close' };

/** Engine → main. */
export type FromEngine =
  | { kind: 'result'; id: number; result: BridgeResult }
  | { kind: 'event'; name: string; payload: unknown }
  /** The engine could not start; calls keep being answered with this error. */
  | { kind: 'fatal'; message: string };

/** The engine process is always the Electron app's: its switches are the 'electron' preset (engine-process.ts). */
export interface EngineProcessOptions {
  dataDir: string;
  nativeBinding?: string;
}

const OPTIONS_FLAG = '--mentor-admin-engine=';

/** The options travel as one argv entry; a flag prefix finds it wherever the runtime puts user arguments. */
export function engineOptionsArg(options: EngineProcessOptions): string {
  return OPTIONS_FLAG + JSON.stringify(options);
}

export function engineOptionsFromArgv(argv: readonly string[]): EngineProcessOptions {
  const arg = argv.find((value) => value.startsWith(OPTIONS_FLAG));
  if (!arg) throw new Error('The engine process was started without its options');
  const parsed: unknown = JSON.parse(arg.slice(OPTIONS_FLAG.length));
  if (!isRecord(parsed) || typeof parsed.dataDir !== 'string' || parsed.dataDir.length === 0) {
    throw new Error('The engine process options have no data folder');
  }
  const options: EngineProcessOptions = { dataDir: parsed.dataDir };
  if (typeof parsed.nativeBinding === 'string') options.nativeBinding = parsed.nativeBinding;
  return options;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isToEngine(value: unknown): value is ToEngine {
  if (!isRecord(value)) return false;
  if (value.kind === 'close') return true;
  return value.kind === 'call' && Number.isSafeInteger(value.id) && typeof value.name === 'string';
}

export function isFromEngine(value: unknown): value is FromEngine {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'result':
      return Number.isSafeInteger(value.id) && isRecord(value.result) && typeof value.result.ok === 'boolean';
    case 'event':
      return typeof value.name === 'string';
    case 'fatal':
      return typeof value.message === 'string';
    default:
      return false;
  }
}

export function internalError(message: string): BridgeResult {
  return { ok: false, error: { code: 'internal', message } };
}
