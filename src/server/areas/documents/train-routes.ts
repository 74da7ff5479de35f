import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../db';
import { badRequest, HttpError, notFound, tooLarge } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { mentorByPathway } from '../mentors/store';
import { chunkText, estimateTokens } from './chunk';
import {
  DOCUMENTS_BASE,
  INVALID_REQUEST,
  isUpload,
  optionalString,
  readFields,
  TRAINING_FAILED,
  type DocumentsContext,
} from './common';
import { extractText, normalizeType, sniffType, typeFromName } from './extract';
import { insertFinishedDocument, insertPendingDocument } from './lifecycle';
import type { DocumentRow } from './schema';
import { fetchUrl, filesDir, parseCustomMetadata, sha256 } from './source';

const ACCESS = ['public', 'private'] as const;
// The callback API costs the event loop less per file than fs/promises' FileHandle (measured: about half).
const writeFileAsync = promisify(writeFile);

function parseAccess(value: unknown, detail: string): DocumentRow['access'] {
  if (value === undefined || value === null || value === '') return 'private';
  if (typeof value !== 'string' || !(ACCESS as readonly string[]).includes(value)) throw badRequest(detail);
  return value as DocumentRow['access'];
}

function metadataOr400(value: unknown): Record<string, string | number | boolean> | null {
  try {
    return parseCustomMetadata(value);
  } catch {
    throw badRequest(TRAINING_FAILED);
  }
}

const clip = (name: string) => name.slice(0, 255);

/** `train/` (queued for the worker), `train/retriever/` (trained in the request) and `tasks/{task_id}/`. */
export function trainRoutes(router: Router, { deps, wake }: DocumentsContext): void {
  const { db, config } = deps;
  const madeDirs = new Set<string>();

  /** Keeps an upload under `<dataDir>/files/<org>/`; returns the path relative to `files/`. */
  async function store(org: string, bytes: Uint8Array, type: string): Promise<string> {
    const dir = join(filesDir(config.dataDir), org);
    if (!madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      madeDirs.add(dir);
    }
    const extension = /^[a-z0-9]{1,10}$/.test(type) ? `.${type}` : '';
    const relative = `${org}/${randomUUID()}${extension}`;
    await writeFileAsync(join(filesDir(config.dataDir), relative), bytes, { mode: PRIVATE_FILE_MODE });
    return relative;
  }

  function mentorOr404(ctx: RequestContext, pathway: string) {
    const mentor = mentorByPathway(db, ctx.params.org!, pathway);
    if (!mentor) throw notFound('Mentor not found');
    return mentor;
  }

  router.post(
    `${DOCUMENTS_BASE}train/`,
    async (ctx) => {
      // The size is checked while the body streams in (core: 413 past the limit + 1 MB) and exactly here.
      const fields = await readFields(ctx, deps);
      const upload = isUpload(fields.file) ? fields.file : null;
      if (upload && upload.data.byteLength > config.uploadLimitBytes) throw tooLarge('File too large');
      const pathway = optionalString(fields.pathway);
      const declaredType = optionalString(fields.type);
      if (!pathway || !declaredType) throw badRequest(INVALID_REQUEST);
      const mentor = mentorOr404(ctx, pathway);
      const access = parseAccess(fields.access, INVALID_REQUEST);
      const customMetadata = metadataOr400(fields.custom_metadata);
      const url = optionalString(fields.url);
      const text = typeof fields.text === 'string' && fields.text.trim() ? fields.text : undefined;
      const named = optionalString(fields.document_name);
      const base = {
        org: ctx.params.org!,
        pathway: mentor.unique_id,
        mentorId: mentor.id,
        username: ctx.caller!.username,
        access,
        customMetadata,
      };
      const now = new Date().toISOString();
      let created: { id: number; taskId: string };
      if (upload) {
        const bytes = upload.data;
        const type =
          declaredType.toLowerCase() === 'file'
            ? (typeFromName(upload.name) ?? sniffType(bytes))
            : normalizeType(declaredType);
        const filePath = await store(base.org, bytes, type);
        created = insertPendingDocument(
          db,
          {
            ...base,
            name: clip(named ?? (upload.name || `upload.${type}`)),
            type,
            sourceKind: 'file',
            url: null,
            filePath,
            fileSize: bytes.byteLength,
            contentHash: sha256(bytes),
          },
          now,
        );
      } else if (url) {
        const type = declaredType.toLowerCase() === 'url' ? 'url' : normalizeType(declaredType);
        created = insertPendingDocument(
          db,
          {
            ...base,
            name: clip(named ?? url),
            type,
            sourceKind: 'url',
            url,
            filePath: null,
            fileSize: null,
            contentHash: null,
          },
          now,
        );
      } else if (text && normalizeType(declaredType) === 'txt') {
        // A sandbox convenience: `type=text` with the content in `text` trains that text as a document.
        const bytes = Buffer.from(text, 'utf8');
        if (bytes.byteLength > config.uploadLimitBytes) throw tooLarge('File too large');
        const filePath = await store(base.org, bytes, 'txt');
        created = insertPendingDocument(
          db,
          {
            ...base,
            name: clip(named ?? (text.trim().split(/\s+/).slice(0, 8).join(' ') || 'Text')),
            type: 'txt',
            sourceKind: 'text',
            url: null,
            filePath,
            fileSize: bytes.byteLength,
            contentHash: sha256(bytes),
          },
          now,
        );
      } else throw badRequest(INVALID_REQUEST);
      wake();
      return {
        status: 200,
        body: {
          document_id: String(created.id),
          task_id: created.taskId,
          message: 'Document received. Your request to train is queued',
        },
      };
    },
    { auth: 'admin' },
  );

  router.post(
    `${DOCUMENTS_BASE}train/retriever/`,
    async (ctx) => {
      const fields = await readFields(ctx, deps);
      const pathway = optionalString(fields.pathway);
      const url = optionalString(fields.url);
      const text = typeof fields.text === 'string' && fields.text.trim() ? fields.text : undefined;
      if (!pathway || (!url && !text)) throw badRequest(TRAINING_FAILED);
      const mentor = mentorOr404(ctx, pathway);
      const access = parseAccess(fields.access, TRAINING_FAILED);
      const customMetadata = metadataOr400(fields.custom_metadata);
      let bytes: Uint8Array;
      let type: string;
      let content: string;
      try {
        if (url) ({ bytes, type } = await fetchUrl(url, config.uploadLimitBytes));
        else {
          bytes = Buffer.from(text!, 'utf8');
          if (bytes.byteLength > config.uploadLimitBytes) throw tooLarge('File too large');
          type = 'txt';
        }
        const declared = optionalString(fields.type);
        if (declared && !['url', 'file', 'text'].includes(declared.toLowerCase())) type = normalizeType(declared);
        content = await extractText(type, bytes);
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw badRequest(TRAINING_FAILED);
      }
      const chunks = chunkText(content);
      const filePath = url ? null : await store(ctx.params.org!, bytes, 'txt');
      const now = new Date().toISOString();
      db.transaction(() =>
        insertFinishedDocument(
          db,
          {
            org: ctx.params.org!,
            pathway: mentor.unique_id,
            mentorId: mentor.id,
            username: ctx.caller!.username,
            name: clip(
              optionalString(fields.document_name) ?? url ?? (content.split(/\s+/).slice(0, 8).join(' ') || 'Text'),
            ),
            type: url ? type : 'txt',
            sourceKind: url ? 'url' : 'text',
            url: url ?? null,
            filePath,
            fileSize: bytes.byteLength,
            contentHash: sha256(bytes),
            access,
            customMetadata,
          },
          {
            status: 'trained',
            chunks,
            tokens: estimateTokens(content),
            failureReason: null,
            createdAt: now,
            trainedAt: now,
          },
        ),
      )();
      return { status: 200, body: { detail: 'Document trained successfully' } };
    },
    { auth: 'admin' },
  );

  router.get(`${DOCUMENTS_BASE}tasks/{task_id}/`, (ctx) => {
    const task = db
      .prepare('SELECT status, message FROM document_tasks WHERE task_id = ? AND org = ?')
      .get(ctx.params.task_id, ctx.params.org) as { status: string; message: string } | undefined;
    if (!task) throw notFound('Task not found');
    return { status: 200, body: task };
  });
}
