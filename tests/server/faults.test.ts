/**
 * The sandbox's fault injection that targets one file: `refuseUpload` answers a 4xx for every upload of that file
 * name (with the given detail, or a bare `{}`), and leaves every other upload and request alone.
 */
import { describe, expect, it } from 'vitest';
import { decideFault, NO_FAULTS, parseFaults } from '../../src/server/faults';
import { call, sandbox } from '../helpers/sandbox';
import { createMentor } from '../train/setup';

describe('refuseUpload fault', () => {
  it('is parsed from the --faults text, repeatable, 4xx only', () => {
    expect(parseFaults('refuseUpload=bad.md:422:Unsupported content,refuseUpload=odd.txt:400').refuseUploads).toEqual([
      { fileName: 'bad.md', status: 422, detail: 'Unsupported content' },
      { fileName: 'odd.txt', status: 400 },
    ]);
    expect(parseFaults('latency=5ms').refuseUploads).toBeUndefined();
    expect(() => parseFaults('refuseUpload=bad.md:500')).toThrow(/notes\.md:422\[:detail\]/);
    expect(() => parseFaults('refuseUpload=bad.md')).toThrow(/refuseUpload/);
  });

  it('refuses every upload of that file name, in any folder, and nothing else', async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Algebra');
    server.setFaults({
      ...NO_FAULTS,
      refuseUploads: [
        { fileName: 'bad.md', status: 422, detail: 'Unsupported content' },
        { fileName: 'bare.md', status: 400 },
      ],
    });
    const upload = (name: string) => {
      const form = new FormData();
      form.set('file', new Blob(['Some notes about algebra.']), name);
      form.set('pathway', mentor);
      form.set('type', 'file');
      return call(server, 'POST', `/api/ai-index/orgs/${server.org}/users/${server.user}/documents/train/`, { form });
    };

    for (const name of ['bad.md', 'course/unit 1/bad.md']) {
      expect(await upload(name)).toMatchObject({ status: 422, body: { detail: 'Unsupported content' } });
    }
    expect(await upload('bad.md')).toMatchObject({ status: 422 });
    expect(await upload('course/bare.md')).toMatchObject({ status: 400, body: {} });
    expect(await upload('course/good.md')).toMatchObject({ status: 200, body: { document_id: expect.any(String) } });
    expect(await upload('course/bad.md.txt')).toMatchObject({ status: 200 });
    const stored = server.db.prepare('SELECT document_name FROM documents WHERE pathway = ? ORDER BY id').pluck();
    expect(stored.all(mentor)).toEqual(['course/good.md', 'course/bad.md.txt']);

    server.setFaults('');
    expect(await upload('bad.md')).toMatchObject({ status: 200 });
  });
});

describe('refusePath fault', () => {
  it('refuses every request to exactly that path with its status and detail, and nothing else', async () => {
    const faults = parseFaults('refusePath=/api/core/platform/api-tokens/keep-me:403:No you do not');
    expect(decideFault(faults, Math.random, '/api/core/platform/api-tokens/keep-me')).toMatchObject({
      kind: 'status',
      status: 403,
      detail: 'No you do not',
    });
    expect(decideFault(faults, Math.random, '/api/core/platform/api-tokens/keep-me-too')).toEqual({ kind: 'none' });
    const server = await sandbox({ faults });
    const refused = await call(server, 'DELETE', `/api/core/platform/api-tokens/keep-me?platform_key=${server.org}`);
    expect(refused).toMatchObject({ status: 403, body: { detail: 'No you do not' } });
    expect((await call(server, 'GET', `/api/core/platform/api-tokens/?platform_key=${server.org}`)).status).toBe(200);
  });
});

describe('capacity fault', () => {
  it('answers 429 with Retry-After to a request beyond the capacity, and counts what it served at once', async () => {
    expect(parseFaults('capacity=3').capacity).toBe(3);
    expect(() => parseFaults('capacity=0')).toThrow("Fault 'capacity' must be a whole number from 1, got '0'");
    const server = await sandbox();
    server.setFaults('capacity=2,latency=150-150ms,retryAfter=2');
    server.takeLoad();
    const path = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(server, 'GET', path)));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body).toEqual({ detail: 'Rate limit exceeded' });
    expect(refused[0]!.headers.get('retry-after')).toBe('2');
    expect(server.takeLoad()).toEqual({ peakInFlight: 2, refusedForLoad: 3 });
    server.setFaults('');
  });
});
