/** What a file is, from its name, its size and the admin's include/exclude patterns; no file is read here. */
import picomatch from 'picomatch';
import { SUPPORTED_EXTENSIONS, type FileClass, type SkipKind } from '../../../shared/contract';
import { formatBytes } from '../../../shared/bytes';

/**
 * The spec names no upload size, only `413 File too large`; tenants are often set to 25 MB (the sandbox too). A file
 * above this is flagged in the preview, not held back: the tenant decides, and a refusal fails that file alone.
 */
export const TYPICAL_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
/** No size limit of the app's own unless the admin sets one (`maxFileBytes`, `train --max-size`). */
export const NO_SIZE_LIMIT = Number.MAX_SAFE_INTEGER;

export interface Verdict {
  class: FileClass;
  reason: string;
  /** For skipped files: which of the preview's groups of reasons. */
  skip?: SkipKind;
}

const SUPPORTED = new Set<string>(SUPPORTED_EXTENSIONS);

/** Folders never worth walking into: version control, dependencies, OS trash and metadata. */
const SKIPPED_FOLDERS: Record<string, string> = {
  '.git': 'Version control folder (.git)',
  '.svn': 'Version control folder (.svn)',
  '.hg': 'Version control folder (.hg)',
  node_modules: 'Dependency folder (node_modules)',
  __macosx: 'macOS archive metadata (__MACOSX)',
  '$recycle.bin': 'Recycle bin',
  'system volume information': 'Windows system folder',
};

const SYSTEM_FILES: Record<string, string> = {
  '.ds_store': 'System file (.DS_Store)',
  'thumbs.db': 'System file (Thumbs.db)',
  'ehthumbs.db': 'System file (ehthumbs.db)',
  'desktop.ini': 'System file (desktop.ini)',
  '.localized': 'System file (.localized)',
};

/** Why a folder is not walked, or null to walk it. */
export function skippedFolderReason(name: string): string | null {
  const known = SKIPPED_FOLDERS[name.toLowerCase()];
  if (known) return known;
  if (name.startsWith('.')) return 'Hidden folder';
  return null;
}

/** Why a file is skipped for its name alone (hidden, system, lock file), or null. */
export function skippedFileReason(name: string): { reason: string; kind: SkipKind } | null {
  const known = SYSTEM_FILES[name.toLowerCase()];
  if (known) return { reason: known, kind: 'system' };
  if (name.startsWith('~$')) return { reason: 'Office lock file (~$…)', kind: 'system' };
  if (name.startsWith('._')) return { reason: 'macOS resource fork (._…)', kind: 'system' };
  if (name.startsWith('.')) return { reason: 'Hidden file', kind: 'hidden' };
  return null;
}

/** The lowercase extension without its dot ('' when none): the document type sent to the platform. */
export function fileType(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export const isSupportedType = (type: string) => SUPPORTED.has(type);

export interface GlobRules {
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * Include/exclude patterns on the relative path. A pattern without a slash matches a file name at any depth
 * (`*.pdf`); one with slashes matches the path with or without the dropped folder's name in front
 * (`drafts/**` and `course/drafts/**` both work when `course` was dropped). Exclude wins over include.
 */
export function globFilter(rules: GlobRules): ((relativePath: string) => string | null) | null {
  if (!rules.include.length && !rules.exclude.length) return null;
  const nocase = process.platform !== 'linux';
  // picomatch's `basename` option only suits patterns without a slash (it breaks `drafts/**`).
  const compile = (patterns: readonly string[]) =>
    patterns.map((pattern) => ({
      pattern,
      test: picomatch(pattern, { dot: true, nocase, basename: !pattern.includes('/') }),
    }));
  const include = compile(rules.include);
  const exclude = compile(rules.exclude);
  const matches = (test: (path: string) => boolean, path: string) => {
    if (test(path)) return true;
    const slash = path.indexOf('/');
    return slash > 0 && test(path.slice(slash + 1));
  };
  return (relativePath) => {
    const excluded = exclude.find((rule) => matches(rule.test, relativePath));
    if (excluded) return `Excluded by pattern "${excluded.pattern}"`;
    if (include.length && !include.some((rule) => matches(rule.test, relativePath))) {
      return 'Not matched by the include patterns';
    }
    return null;
  };
}

/**
 * A file by name: skipped (system, hidden, lock file, excluded), unsupported, or null when it is a candidate
 * whose size and content decide the rest.
 */
export function classifyByName(
  relativePath: string,
  name: string,
  filter: ((relativePath: string) => string | null) | null,
  otherTypes = false,
): Verdict | null {
  const byName = skippedFileReason(name);
  if (byName) return { class: 'skipped', reason: byName.reason, skip: byName.kind };
  const filtered = filter?.(relativePath);
  if (filtered) return { class: 'skipped', reason: filtered, skip: 'excluded' };
  const type = fileType(name);
  if (!isSupportedType(type) && !otherTypes) {
    return {
      class: 'unsupported',
      reason: type
        ? `.${type} is not a type known to train (send it with "other file types")`
        : 'No extension, so not a type known to train (send it with "other file types")',
    };
  }
  return null;
}

export const EMPTY_FILE = 'Empty file (nothing to train)';

/** What the preview says of a file sent although its type is not one known to train. */
export function otherTypeWarning(type: string): string | null {
  if (isSupportedType(type)) return null;
  const what = type ? `.${type} files` : 'Files without an extension';
  return `${what} are not among the types known to train (${SUPPORTED_EXTENSIONS.join(', ')}): the tenant may fail it`;
}

/** A candidate by size: too large, empty (nothing to train: skipped), or null to hash and send. */
export function classifyBySize(size: number, maxFileBytes: number): Verdict | null {
  if (size > maxFileBytes) {
    return { class: 'too_large', reason: `Larger than the ${formatBytes(maxFileBytes)} limit (${formatBytes(size)})` };
  }
  if (size === 0) return { class: 'skipped', reason: EMPTY_FILE, skip: 'empty' };
  return null;
}
