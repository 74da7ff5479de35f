/**
 * A full garbage collection on demand, for long streaming jobs. V8 lets its heap grow well past what a streaming
 * export keeps alive (each page is garbage a moment after it is written), so a million-row export would otherwise
 * settle at several times its live memory. Collecting every few megabytes keeps it flat for a few percent of time.
 * `--expose-gc` set at run time exposes `gc` to new contexts only, which is all this needs.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
