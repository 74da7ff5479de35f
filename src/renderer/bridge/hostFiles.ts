/**
 * Browser mode's side channel for files, beside the WebSocket (same-origin HTTP, the session cookie goes along):
 * staging copies the files the page was given to the host (src/main/host/stage.ts), one streamed request per file
 * with a few in flight, and gets back handles the engine can preview, train or import (the page never names a path
 * on the host's disk); a finished export's file comes back the other way as a download (src/main/host/download.ts).
 */
import { StagedDrop } from '../../shared/transport';
import { formatBytes } from '../lib/format';
import type { FileStaging, NotCopied, PickedFile, Staged, StageProgress } from './types';
import { saveFile } from '../lib/saveFile';

/** Matches the host's per-file cap: bigger files are not sent at all. */
export const STAGE_MAX_FILE_BYTES = 200 * 1024 * 1024;
const PARALLEL_UPLOADS = 4;

export class StagingError extends Error {
  override name = 'StagingError';
}

function newStagingId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Same-origin requests: the session cookie goes with them. */
function stageUrl(stagingId: string, suffix: string): string {
  return `/stage/${stagingId}/${suffix}`;
}

const encodePath = (relativePath: string) => relativePath.split('/').map(encodeURIComponent).join('/');

async function errorOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON
  }
  return `HTTP ${response.status}`;
}

/**
 * Uploads every file; files the host refuses as too large, or the browser cannot read, are reported rather than
 * failing the whole drop. Anything else (session, origin, disk) stops with a StagingError.
 */
async function stageFiles(
  files: PickedFile[],
  options: { onProgress?: (progress: StageProgress) => void; signal?: AbortSignal } = {},
): Promise<Staged> {
  const stagingId = newStagingId();
  const notCopied: NotCopied[] = [];
  const toSend: PickedFile[] = [];
  for (const picked of files) {
    if (picked.file.size > STAGE_MAX_FILE_BYTES) {
      notCopied.push({
        relativePath: picked.relativePath,
        reason: `Over ${formatBytes(STAGE_MAX_FILE_BYTES)}: too large to copy from the browser`,
      });
    } else toSend.push(picked);
  }
  const progress: StageProgress = {
    files: 0,
    totalFiles: toSend.length,
    bytes: 0,
    totalBytes: toSend.reduce((sum, picked) => sum + picked.file.size, 0),
  };
  options.onProgress?.({ ...progress });

  let next = 0;
  const worker = async () => {
    while (next < toSend.length) {
      const picked = toSend[next++]!;
      await uploadOne(stagingId, picked, notCopied, options.signal);
      progress.files += 1;
      progress.bytes += picked.file.size;
      options.onProgress?.({ ...progress });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, toSend.length) }, worker));
    if (notCopied.length === files.length) throw new StagingError('None of the files could be copied');
    const done = await fetch(stageUrl(stagingId, 'done'), { method: 'POST', signal: options.signal ?? null });
    if (!done.ok) throw new StagingError(await errorOf(done));
    const answer = StagedDrop.parse(await done.json());
    return { stagingId, entries: answer.entries, notCopied };
  } catch (error) {
    void discardStaging(stagingId);
    throw error;
  }
}

async function uploadOne(stagingId: string, picked: PickedFile, notCopied: NotCopied[], signal?: AbortSignal) {
  let response: Response;
  try {
    response = await fetch(stageUrl(stagingId, `files/${encodePath(picked.relativePath)}`), {
      method: 'POST',
      body: picked.file,
      signal: signal ?? null,
    });
  } catch (error) {
    signal?.throwIfAborted();
    // A file that vanished or cannot be read fails the request before anything is sent.
    notCopied.push({ relativePath: picked.relativePath, reason: `The file could not be read (${String(error)})` });
    return;
  }
  if (response.ok) return;
  const message = await errorOf(response);
  if (response.status === 413 || response.status === 409 || response.status === 400) {
    notCopied.push({ relativePath: picked.relativePath, reason: message });
    return;
  }
  throw new StagingError(`Files could not be copied to Mentor Admin: ${message}`);
}

/** Forgets a staging the admin did not use (the host also removes old ones at start). */
async function discardStaging(stagingId: string): Promise<void> {
  await fetch(stageUrl(stagingId, ''), { method: 'DELETE' }).catch(() => undefined);
}

export const hostStaging: FileStaging = { stage: stageFiles, discard: discardStaging };

/** The host hands a finished export's file to this page, which saves it through the browser's own downloads. */
export async function downloadExport(id: string, fileName: string): Promise<void> {
  const response = await fetch(`/export-file/${encodeURIComponent(id)}`, { method: 'POST' });
  if (!response.ok) throw new Error((await response.text()) || `${response.status} ${response.statusText}`);
  saveFile(await response.blob(), fileName);
}
