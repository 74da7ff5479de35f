import type { AreaDeps } from '../../area';
import { formToObject } from '../../http/body';
import { badRequest, HttpError, notFound } from '../../http/errors';
import type { RequestContext } from '../../http/router';
import { stmt } from '../mentors/sql';
import { readMultipart, type UploadedFile } from './multipart';
import type { DocumentRow } from './schema';

export const DOCUMENTS_BASE = '/api/ai-index/orgs/{org}/users/{user_id}/documents/';
export const INVALID_REQUEST = 'Invalid request data';
export const TRAINING_FAILED = 'Invalid request data or training failed';

export interface DocumentsContext {
  deps: AreaDeps;
  /** Tells the training worker there is new work. */
  wake(): void;
}

/**
 * A request body as an object: multipart (files as `UploadedFile`s, at most the upload limit + 1 MB, else 413 'File
 * too large'), urlencoded, or JSON.
 */
export async function readFields(ctx: RequestContext, deps: AreaDeps): Promise<Record<string, unknown>> {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') {
    const { fields, files } = await readMultipart(
      ctx.req,
      deps.config.uploadLimitBytes + 1024 * 1024,
      'File too large',
    );
    for (const file of Object.values(files)) {
      const refusal = deps.refusedUpload?.(file.name);
      if (refusal) throw new HttpError(refusal.status, refusal.detail ?? '');
    }
    return { ...fields, ...files };
  }
  const body = type === 'application/x-www-form-urlencoded' ? formToObject(await ctx.form()) : await ctx.json();
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(INVALID_REQUEST);
  return body as Record<string, unknown>;
}

export const isUpload = (value: unknown): value is UploadedFile =>
  !!value && typeof value === 'object' && Buffer.isBuffer((value as UploadedFile).data);

export const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/** Students see public documents only; tenant admins see every document of the tenant. */
export const publicOnly = (ctx: RequestContext) => ctx.caller?.role !== 'admin';

/** The document `{document_id}` of the caller's tenant (and visible to the caller), or 404 'Document not found'. */
export function documentOr404(deps: AreaDeps, ctx: RequestContext): DocumentRow {
  const raw = ctx.params.document_id!;
  const row = /^\d{1,15}$/.test(raw)
    ? (stmt(deps.db, 'SELECT * FROM documents WHERE id = ? AND org = ?').get(Number(raw), ctx.params.org) as
        DocumentRow | undefined)
    : undefined;
  if (!row || (publicOnly(ctx) && row.access !== 'public')) throw notFound('Document not found');
  return row;
}
