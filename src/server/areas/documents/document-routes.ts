import { badRequest } from '../../http/errors';
import { intParam, limitOffsetPage } from '../../http/pagination';
import type { Router } from '../../http/router';
import { mentorByPathway } from '../mentors/store';
import {
  DOCUMENTS_BASE,
  documentOr404,
  INVALID_REQUEST,
  publicOnly,
  readFields,
  type DocumentsContext,
} from './common';
import { deleteDocument, queueTraining, untrainDocument } from './lifecycle';
import { presentDocument } from './present';
import type { DocumentRow } from './schema';
import { parseCustomMetadata } from './source';

function parseTrainFlag(value: unknown): boolean | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'True' || value === '1') return true;
  if (value === 'false' || value === 'False' || value === '0') return false;
  throw badRequest(INVALID_REQUEST);
}

/** `{document_id}/` GET/PUT/DELETE, `{document_id}/settings/` GET/POST and the per-pathway list. */
export function documentRoutes(router: Router, { deps, wake }: DocumentsContext): void {
  const { db, config } = deps;
  const reload = (id: number) => db.prepare('SELECT * FROM documents WHERE id = ?').get(id) as DocumentRow;

  router.get(`${DOCUMENTS_BASE}pathways/{pathway}/`, (ctx) => {
    const limit = Math.max(1, intParam(ctx.query, 'limit', 20, 100));
    const offset = intParam(ctx.query, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const where = ['org = @org', 'pathway = @pathway'];
    if (publicOnly(ctx)) where.push(`access = 'public'`);
    const search = ctx.query.get('search');
    if (search) where.push(`(document_name LIKE @search ESCAPE '\\' OR url LIKE @search ESCAPE '\\')`);
    const params = {
      org: ctx.params.org,
      pathway: ctx.params.pathway,
      search: `%${(search ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    };
    const sql = `FROM documents WHERE ${where.join(' AND ')}`;
    const { n } = db.prepare(`SELECT count(*) AS n ${sql}`).get(params) as { n: number };
    const rows = db
      .prepare(`SELECT * ${sql} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit, offset }) as DocumentRow[];
    return { status: 200, body: limitOffsetPage(ctx.url, limit, offset, n, rows.map(presentDocument)) };
  });

  const one = `${DOCUMENTS_BASE}{document_id}/`;
  router.get(one, (ctx) => ({ status: 200, body: presentDocument(documentOr404(deps, ctx)) }));

  router.put(
    one,
    async (ctx) => {
      const row = documentOr404(deps, ctx);
      const body = await readFields(ctx, deps);
      const train = parseTrainFlag(body.train);
      const changes: Partial<
        Record<'document_name' | 'access' | 'pathway' | 'mentor_id' | 'custom_metadata' | 'url', unknown>
      > = {};
      if (body.document_name !== undefined) {
        if (typeof body.document_name !== 'string' || !body.document_name.trim() || body.document_name.length > 255) {
          throw badRequest(INVALID_REQUEST);
        }
        changes.document_name = body.document_name.trim();
      }
      if (body.access !== undefined && body.access !== '') {
        if (body.access !== 'public' && body.access !== 'private') throw badRequest(INVALID_REQUEST);
        changes.access = body.access;
      }
      if (typeof body.pathway === 'string' && body.pathway && body.pathway !== row.pathway) {
        // Moving a document to another mentor of the tenant; its chunks follow (search joins on the document).
        const mentor = mentorByPathway(db, row.org, body.pathway);
        if (!mentor) throw badRequest(INVALID_REQUEST);
        changes.pathway = mentor.unique_id;
        changes.mentor_id = mentor.id;
      }
      if (body.custom_metadata !== undefined) {
        try {
          changes.custom_metadata = JSON.stringify(parseCustomMetadata(body.custom_metadata) ?? {});
        } catch {
          throw badRequest(INVALID_REQUEST);
        }
      }
      if (row.source_kind === 'url' && typeof body.url === 'string' && body.url && body.url !== row.url) {
        if (!URL.canParse(body.url)) throw badRequest(INVALID_REQUEST);
        changes.url = body.url;
      }
      const now = new Date().toISOString();
      const keys = Object.keys(changes);
      if (keys.length) {
        db.prepare(
          `UPDATE documents SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, updated_at = @now WHERE id = @id`,
        ).run({
          ...changes,
          now,
          id: row.id,
        });
      }
      if (train === false && row.training_status !== 'untrained') untrainDocument(db, row.id, now);
      // train: true (re)trains: a trained document is retrained, a failed or untrained one is tried again.
      if (train === true && row.training_status !== 'pending') {
        queueTraining(db, row.id, now);
        wake();
      }
      return { status: 200, body: presentDocument(reload(row.id)) };
    },
    { auth: 'admin' },
  );

  router.delete(
    one,
    async (ctx) => {
      const row = documentOr404(deps, ctx);
      await deleteDocument(db, row, config.dataDir, new Date().toISOString());
      return { status: 204 };
    },
    { auth: 'admin' },
  );

  const settings = `${DOCUMENTS_BASE}{document_id}/settings/`;
  router.get(
    settings,
    (ctx) => ({ status: 200, body: { retrain_interval_days: documentOr404(deps, ctx).retrain_interval_days } }),
    { auth: 'admin' },
  );
  router.post(
    settings,
    async (ctx) => {
      const row = documentOr404(deps, ctx);
      const body = await readFields(ctx, deps);
      let days: number | null = row.retrain_interval_days;
      if (body.retrain_interval_days !== undefined) {
        const value = body.retrain_interval_days;
        if (value === null || value === '') days = null;
        // The spec's field is a plain integer: any whole number of days from 1 (0 and null mean never).
        else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) days = value || null;
        else if (typeof value === 'string' && /^\d{1,15}$/.test(value)) days = Number(value) || null;
        else throw badRequest(INVALID_REQUEST);
      }
      db.prepare('UPDATE documents SET retrain_interval_days = ?, updated_at = ? WHERE id = ?').run(
        days,
        new Date().toISOString(),
        row.id,
      );
      return { status: 200, body: { retrain_interval_days: days } };
    },
    { auth: 'admin' },
  );
}
