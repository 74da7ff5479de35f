/** Types of scripts/ensure-build.mjs (plain JavaScript: `bin/mentor-admin.mjs` runs it with no TypeScript loader). */
export declare const ROOT: string;
export declare const BUILD_RECORDS_DIR: string;
export declare function buildStaleReason(parts?: string[], root?: string): string | null;
export declare function ensureBuilt(
  parts?: string[],
  options?: { root?: string; log?: (line: string) => void },
): Promise<void>;
