/**
 * Platform errors about a resource in words an admin can act on, and DRF's field errors (`{"name": ["…"]}`) as
 * issues at the fields that caused them, so a form shows each message under its own field.
 */
import type { z } from 'zod';
import type { BridgeError } from '../../../shared/contract';
import { pluralOf, type ResourceDeclaration } from '../../../shared/resources';
import { EngineError } from '../errors';
import { ApiError } from '../platform';

type Issues = NonNullable<BridgeError['issues']>;

/** DRF's error body as issues: `{field: ["…"]}`, nested objects by dotted path, `non_field_errors` at no field. */
export function drfIssues(body: unknown, prefix = ''): Issues {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const issues: Issues = [];
  for (const [key, value] of Object.entries(body)) {
    // DRF's message is a string `detail`; a list under `detail` is the errors of a field named so (profile memory's).
    if (key === 'detail' && !prefix && !Array.isArray(value)) continue;
    const path = key === 'non_field_errors' ? prefix.replace(/\.$/, '') : `${prefix}${key}`;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item === 'string') issues.push({ path, message: item });
      else if (item && typeof item === 'object') issues.push(...drfIssues(item, `${path}.`));
    }
  }
  return issues;
}

const describe = (issues: Issues) => issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');

/** The form's own check of the values against the spec's rules, in the same shape as the platform's. */
export function invalidValues(declaration: ResourceDeclaration, error: z.ZodError): EngineError {
  const issues: Issues = error.issues.map((issue) => ({
    path: issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? `Not a field of ${pluralOf(declaration)}` : issue.message,
  }));
  return new EngineError('validation', `Check the ${declaration.singular}: ${describe(issues)}`, { issues });
}

export function explain(error: unknown, declaration: ResourceDeclaration, id?: string): unknown {
  if (error instanceof Error && error.name === 'UnexpectedAnswerError') return new EngineError('api', error.message);
  if (!(error instanceof ApiError)) return error;
  const { status, detail } = error;
  const issues = drfIssues(error.body);
  if (status === 400 && issues.length) {
    return new EngineError('validation', `The platform refused the ${declaration.singular}: ${describe(issues)}`, {
      issues,
      status,
    });
  }
  if (status === 404) {
    return new EngineError(
      'not_found',
      id === undefined ? (detail ?? 'Not Found') : `No ${declaration.singular} "${id}" on this tenant`,
    );
  }
  if (status === 401) {
    return new EngineError(
      'api',
      `${error.message}${detail ? ` (${detail})` : ''}: the tenant refused this key. Enter a valid API key for this tenant in Settings → Tenants.`,
      { status },
    );
  }
  if (status === 403) {
    return new EngineError(
      'api',
      `${error.message}${detail ? ` (${detail})` : ''}: ${pluralOf(declaration)} need a tenant admin's key. Use such a key in Settings → Tenants.`,
      { status },
    );
  }
  return new EngineError('api', detail && detail !== error.message ? `${error.message} (${detail})` : error.message, {
    status,
  });
}
