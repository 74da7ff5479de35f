/** An engine with a tenant connection to a real sandbox, and the events it emits. */
import { expect } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call } from '../helpers/sandbox';
import { startServer, type TestServer } from '../platform/test-server';

/** The key is stored in the OS keychain of the test. */
export { connect, failure, until, type Connected } from '../helpers/engine';

const mentorsPath = (server: Sandbox) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
export const documentsPath = (server: Sandbox) => `/api/ai-index/orgs/${server.org}/users/${server.user}/documents/`;

/** The sandbox's own view of its mentors (name, description, visibility), straight over HTTP. */
export async function serverMentors(server: Sandbox) {
  const list = await call(server, 'GET', `${mentorsPath(server)}?page_size=1000`);
  expect(list.status).toBe(200);
  const results = (list.body as { results: { unique_id: string; name: string }[] }).results;
  return Promise.all(
    results.map(async ({ unique_id, name }) => {
      const settings = await call(server, 'GET', `${mentorsPath(server)}mentors/${unique_id}/settings/`);
      const body = settings.body as { mentor_description: string; mentor_visibility: string };
      return { uniqueId: unique_id, name, description: body.mentor_description, visibility: body.mentor_visibility };
    }),
  );
}

interface ServerDocument {
  id: number;
  document_name: string;
  training_status: string;
  access: string;
  retrain_interval_days: number | null;
  pathway: string;
}

/** The sandbox's own view of a mentor's documents. */
export async function serverDocuments(server: Sandbox, pathway: string): Promise<ServerDocument[]> {
  const list = await call(server, 'GET', `${documentsPath(server)}pathways/${pathway}/?limit=100`);
  expect(list.status).toBe(200);
  return (list.body as { results: ServerDocument[] }).results;
}

export async function serverDocument(server: Sandbox, id: string | number): Promise<ServerDocument | null> {
  const one = await call(server, 'GET', `${documentsPath(server)}${id}/`);
  return one.status === 200 ? (one.body as ServerDocument) : null;
}

/**
 * A loopback proxy in front of the sandbox that records every request the engine sends (to count round trips and
 * read the bodies). Connect with `{ ...server, url: proxy.url }`; set `failWith` to make requests fail, `hold` to
 * delay answers.
 */
export interface Proxy extends TestServer {
  /** Answer requests (those whose method and URL match, when given) with this status instead. */
  failWith: { status: number; match?: RegExp } | null;
  /** Answers of requests whose URL matches wait for `until` (the request itself reaches the sandbox at once). */
  hold: { match: RegExp; until: Promise<void> } | null;
}

export async function recordingProxy(server: Sandbox): Promise<Proxy> {
  const proxy = await startServer(async (req, res, { body }) => {
    const fail = withFailure.failWith;
    if (fail && (!fail.match || fail.match.test(`${req.method} ${req.url}`))) {
      res.writeHead(fail.status, { 'content-type': 'application/json' }).end('{"detail": "Proxy failure"}');
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(server.url + req.url, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    });
    const hold = withFailure.hold;
    if (hold && hold.match.test(req.url ?? '')) await hold.until;
    const out: Record<string, string> = {};
    const type = answer.headers.get('content-type');
    if (type) out['content-type'] = type;
    res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
  });
  const withFailure: Proxy = Object.assign(proxy, { failWith: null, hold: null });
  return withFailure;
}
