/**
 * The sandbox's single-record kinds (one record per org): org metadata, site config, billing status and the
 * branding images. Each is a JSON object in the generic store under the id `@tenant`; requests are checked against
 * the spec as the other declared operations are, and the images must be images (Django's ImageField words).
 */
import type { Db } from '../../db';
import { HttpError, fieldErrors } from '../../http/errors';
import type { Reply, RequestContext, Router } from '../../http/router';
import {
  SINGLE_RECORD_ID,
  imageFormat,
  openBody,
  recordSchemaOf,
  specOperation,
  toDataUrl,
  type ResourceDeclaration,
} from '../../../shared/resources';
import { checkBody, checkQuery, present } from './validate';

type Row = Record<string, unknown>;

function store(db: Db, kind: string) {
  return {
    read(org: string): Row | null {
      const text = db
        .prepare('SELECT data FROM resource_store WHERE org = ? AND kind = ? AND id = ?')
        .pluck()
        .get(org, kind, SINGLE_RECORD_ID) as string | undefined;
      return text ? (JSON.parse(text) as Row) : null;
    },
    write(org: string, record: Row): void {
      db.prepare(
        `INSERT INTO resource_store (org, kind, id, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (org, kind, id) DO UPDATE SET data = excluded.data`,
      ).run(org, kind, SINGLE_RECORD_ID, JSON.stringify(record));
    },
  };
}

/** A single record's own answer and save, per kind: what the platform keeps and answers. */
interface SingleBackend {
  read(org: string): Row;
  /** The body as checked against the spec (an open body whole). */
  write?(org: string, body: Row): Row;
}

function singleBackends(db: Db): Record<string, SingleBackend> {
  const orgName = (org: string) =>
    (db.prepare('SELECT name FROM orgs WHERE key = ?').pluck().get(org) as string | undefined) ?? org;
  const metadata = store(db, 'org-metadata');
  const site = store(db, 'site-config');
  const billing = store(db, 'billing');
  return {
    'org-metadata': {
      read: (org) => ({ platform_key: org, platform_name: orgName(org), metadata: metadata.read(org)?.metadata ?? {} }),
      write: (org, body) => {
        if ('metadata' in body) metadata.write(org, { metadata: body.metadata });
        return { platform_key: org, platform_name: orgName(org), metadata: metadata.read(org)?.metadata ?? {} };
      },
    },
    'site-config': {
      read: (org) => site.read(org) ?? {},
      // The platform's own words: one setting a call, `field_key` and `value`.
      write: (org, body) => {
        const key = body.field_key;
        if (typeof key !== 'string' || !key.trim()) {
          throw fieldErrors({
            field_key: [key === undefined ? 'This field is required.' : 'This field may not be blank.'],
          });
        }
        if (!('value' in body)) throw fieldErrors({ value: ['This field is required.'] });
        const next = { ...(site.read(org) ?? {}), [key]: body.value };
        site.write(org, next);
        return next;
      },
    },
    billing: {
      // No card subscription until the org's billing says otherwise.
      read: (org) => billing.read(org) ?? { subscriptions: [] },
    },
  };
}

/** The org of a request: the path's, else the connection field the declaration names, which must be the caller's. */
function orgOf(ctx: RequestContext, declaration: ResourceDeclaration, given: Row): string {
  if (ctx.params.org) return ctx.params.org;
  for (const [name, value] of Object.entries(declaration.tenant ?? {})) {
    if (value !== 'org') continue;
    if (given[name] === undefined) throw fieldErrors({ [name]: ['This field is required.'] });
    if (given[name] !== ctx.caller?.org) throw new HttpError(404, 'Organization not found');
  }
  if (!ctx.caller) throw new HttpError(401, 'Authentication credentials were not provided.');
  return ctx.caller.org;
}

/** DRF's FileField/ImageField answers to an upload. */
async function uploadedImage(ctx: RequestContext, field: string): Promise<string> {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data') {
    const body = (await ctx.json().catch(() => null)) as Row | null;
    if (!body || body[field] === undefined) throw fieldErrors({ [field]: ['No file was submitted.'] });
    throw fieldErrors({ [field]: ['The submitted data was not a file. Check the encoding type on the form.'] });
  }
  const form = await ctx.form();
  const file = form.get(field);
  if (!file) throw fieldErrors({ [field]: ['No file was submitted.'] });
  if (typeof file === 'string') {
    throw fieldErrors({ [field]: ['The submitted data was not a file. Check the encoding type on the form.'] });
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length === 0) throw fieldErrors({ [field]: ['The submitted file is empty.'] });
  const format = imageFormat(bytes);
  if (!format) {
    throw fieldErrors({
      [field]: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
    });
  }
  // Kept as a data: URL: the answer's `file` is a URI the app can show without fetching anything.
  return toDataUrl(format.type, bytes);
}

/** Routes of one single-record declaration: its get and update, and the read and write of each field of its own. */
export function singleRoutes(router: Router, db: Db, declaration: ResourceDeclaration): void {
  const backend = singleBackends(db)[declaration.kind];
  const answer = (status: number, body: unknown): Reply => ({ status, body });
  const { get, update } = declaration.operations;
  if (get) {
    const spec = specOperation(get);
    const schema = recordSchemaOf(get);
    router.add(
      'GET',
      get.path,
      (ctx) => {
        const query = checkQuery(spec, ctx.query);
        return answer(spec.response.status, present(schema, backend!.read(orgOf(ctx, declaration, query))));
      },
      { auth: 'admin' },
    );
  }
  if (update && backend?.write) {
    const spec = specOperation(update);
    const schema = recordSchemaOf(update);
    router.add(
      update.method.toUpperCase() as 'POST',
      update.path,
      async (ctx) => {
        const query = checkQuery(spec, ctx.query);
        const raw = await ctx.json();
        const checked = checkBody(spec, raw);
        const body = openBody(spec.body?.schema) ? (raw as Row) : checked;
        const org = orgOf(ctx, declaration, { ...query, ...body });
        return answer(spec.response.status, present(schema, backend.write!(org, body)));
      },
      { auth: 'admin' },
    );
  }
  for (const field of declaration.fields) {
    if (!field.own) continue;
    const images = store(db, `${declaration.kind}:${field.name}`);
    const { read, write, answerField, bodyField } = field.own;
    // The spec leaves the image reads open to anyone (they are the tenant's public branding).
    router.add(
      'GET',
      read.path,
      (ctx) => {
        const file = images.read(ctx.params.org!)?.file;
        return answer(200, file ? { [answerField]: file } : {});
      },
      { auth: 'none' },
    );
    router.add(
      'POST',
      write.path,
      async (ctx) => {
        const file = await uploadedImage(ctx, bodyField);
        images.write(ctx.params.org!, { file });
        return answer(specOperation(write).response.status, { [bodyField]: file });
      },
      { auth: 'admin' },
    );
  }
}

/** A small logo, drawn as SVG, for the demo tenants' branding. */
function demoLogo(name: string, dark: boolean): string {
  const initials = name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48">` +
    `<rect width="48" height="48" rx="10" fill="${dark ? '#a5b4fc' : '#4338ca'}"/>` +
    `<text x="24" y="31" font-family="sans-serif" font-size="18" font-weight="700" text-anchor="middle" fill="${dark ? '#1e1b4b' : '#ffffff'}">${initials}</text>` +
    `<text x="58" y="30" font-family="sans-serif" font-size="15" font-weight="600" fill="${dark ? '#e0e7ff' : '#1e1b4b'}">${name.slice(0, 12)}</text></svg>`;
  return toDataUrl('image/svg+xml', new TextEncoder().encode(svg));
}

/** Demo data: each org's metadata, site settings, a subscription and its logos, as a tenant in use has them. */
export function seedSingles(db: Db): void {
  const orgs = db.prepare('SELECT key, name FROM orgs ORDER BY key').all() as { key: string; name: string }[];
  for (const { key, name } of orgs) {
    store(db, 'org-metadata').write(key, {
      metadata: { support_email: `help@${key}.example.edu`, locale: 'en-US', timezone: 'America/New_York' },
    });
    store(db, 'site-config').write(key, {
      site_name: name,
      footer_text: `© ${name}`,
      enable_signup: false,
      default_language: 'en',
    });
    store(db, 'billing').write(key, {
      subscriptions: [{ plan: 'Campus', status: 'active', seats: 500, current_period_end: '2027-06-30T00:00:00Z' }],
    });
    store(db, 'branding:logo').write(key, { file: demoLogo(name, false) });
    store(db, 'branding:dark_mode_logo').write(key, { file: demoLogo(name, true) });
  }
}
