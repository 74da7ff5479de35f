/**
 * The bridge boundary for the app's page (Electron IPC, browser mode's WebSocket): every input field the contract
 * declares as a local path (`localPaths` in src/shared/contract/kit.ts) must hold handles the page was given, and
 * is replaced by the paths they name before the engine sees the call. A raw path, an unknown, expired or foreign
 * handle, or a read handle where the engine would write, refuses the whole call. The CLI and in-process callers
 * skip this gate: they run as the user and pass real paths.
 */
import { calls, isCallName, type BridgeResult, type PathAccess } from '../../shared/contract';
import { looksLikeHandle, type Refusal, type Resolution } from './registry';

export type ResolveHandle = (handle: string, access: PathAccess) => Resolution;

export type Gated = { ok: true; input: unknown } | { ok: false; result: BridgeResult };

const WHY: Record<Refusal | 'raw', string> = {
  raw: 'a file or folder is named by choosing or dropping it in the app, not by its path',
  unknown: 'this file or folder is not one Mentor Admin handed this window: choose it again',
  foreign: 'this file or folder is not one Mentor Admin handed this window: choose it again',
  expired: 'this file or folder was chosen too long ago: choose it again',
  access: 'this was chosen to be read, not as a place to write: choose a folder for the files',
};

function refuse(name: string, field: string, why: Refusal | 'raw'): Gated {
  return {
    ok: false,
    result: {
      ok: false,
      error: {
        code: 'validation',
        message: `Refused ${name}: ${WHY[why]}`,
        issues: [{ path: field, message: WHY[why] }],
      },
    },
  };
}

/** The input with every declared path field's handles turned into paths, or the refusal to answer instead. */
export function gatePagePaths(name: unknown, input: unknown, resolve: ResolveHandle): Gated {
  // Unknown calls and inputs that are not objects are the contract's to refuse (dispatch), with its own words.
  if (!isCallName(name)) return { ok: true, input };
  const fields = (calls[name] as { localPaths?: Readonly<Record<string, PathAccess>> }).localPaths;
  if (!fields || typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: true, input };
  const record = input as Record<string, unknown>;
  const translated: Record<string, unknown> = { ...record };
  for (const [field, access] of Object.entries(fields)) {
    if (!Object.prototype.hasOwnProperty.call(record, field) || record[field] === undefined) continue;
    const value = record[field];
    const one = (handle: unknown, at: string): string | Gated => {
      if (typeof handle !== 'string') return refuse(name, at, 'raw');
      const resolution = resolve(handle, access);
      if (resolution.ok) return resolution.path;
      return refuse(name, at, looksLikeHandle(handle) ? resolution.reason : 'raw');
    };
    if (Array.isArray(value)) {
      const paths: string[] = [];
      for (const [index, handle] of value.entries()) {
        const path = one(handle, `${field}.${index}`);
        if (typeof path !== 'string') return path;
        paths.push(path);
      }
      translated[field] = paths;
    } else {
      const path = one(value, field);
      if (typeof path !== 'string') return path;
      translated[field] = path;
    }
  }
  return { ok: true, input: translated };
}
