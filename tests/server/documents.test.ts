import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { coreArea } from '../../src/server/areas/core';
import { documentsArea } from '../../src/server/areas/documents';
import { mentorsArea } from '../../src/server/areas/mentors';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const T = '/api/ai-index/orgs/{org}/users/{user_id}/documents/';
const docs = (server: Sandbox, user = server.user) => `/api/ai-index/orgs/${server.org}/users/${user}/documents/`;

interface TrainAnswer {
  document_id: string;
  task_id: string;
  message: string;
}
interface Doc {
  id: number;
  document_name: string;
  document_type: string;
  training_status: string;
  is_trained: boolean;
  tokens: number | null;
  access: string;
  pathway: string;
  metadata: unknown;
  custom_metadata: Record<string, unknown>;
  content_hash: string | null;
  failure_reason: string | null;
  chunk_count: number;
  last_trained_at: string | null;
}
interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
interface SearchResult {
  page_content: string;
  snippet: string;
  document_id: number;
  document_name: string;
  score: number;
}

/**
 * A sandbox for a whole describe block. Its folder is this file's own: tempDir() treats a folder made in a later
 * block's beforeAll as per-test and removes it after that block's first test. Unhandled server errors are printed.
 */
const blockDirs: string[] = [];
const blockServers: Sandbox[] = [];
async function box(options: Parameters<typeof sandbox>[0] = {}): Promise<Sandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-documents-'));
  blockDirs.push(dataDir);
  const server = await sandbox({ dataDir, log: (line) => console.error(line), ...options });
  blockServers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(blockServers.map((server) => server.close()));
  for (const dir of blockDirs) rmSync(dir, { recursive: true, force: true });
});

async function createMentor(server: Sandbox, name: string): Promise<string> {
  const created = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name },
  });
  expect(created.status).toBe(201);
  return (created.body as { unique_id: string }).unique_id;
}

function trainForm(pathway: string, file: Blob, name: string, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('file', file, name);
  form.set('pathway', pathway);
  form.set('type', 'file');
  for (const [key, value] of Object.entries(extra)) form.set(key, value);
  return form;
}

async function train(
  server: Sandbox,
  pathway: string,
  name: string,
  content: string | Uint8Array,
  extra: Record<string, string> = {},
) {
  const blob = new Blob([typeof content === 'string' ? content : new Uint8Array(content)]);
  const answer = await call(server, 'POST', `${docs(server)}train/`, { form: trainForm(pathway, blob, name, extra) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expectSpecValid('post', `${T}train/`, 200, answer.body);
  return answer.body as TrainAnswer;
}

/** Polls the task until the worker is done with it. */
async function settle(server: Sandbox, taskId: string): Promise<{ status: string; message: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const task = await call(server, 'GET', `${docs(server)}tasks/${taskId}/`);
    expect(task.status).toBe(200);
    expectSpecValid('get', `${T}tasks/{task_id}/`, 200, task.body);
    const body = task.body as { status: string; message: string };
    if (body.status !== 'pending') return body;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still pending`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function getDoc(server: Sandbox, id: number | string): Promise<Doc> {
  const answer = await call(server, 'GET', `${docs(server)}${id}/`);
  expect(answer.status).toBe(200);
  expectSpecValid('get', `${T}{document_id}/`, 200, answer.body);
  return answer.body as Doc;
}

async function search(
  server: Sandbox,
  pathway: string,
  query: string,
  key?: string,
  user?: string,
): Promise<SearchResult[]> {
  const answer = await call(server, 'POST', `${docs(server, user)}search/`, {
    json: { query, pathway },
    ...(key ? { key } : {}),
  });
  expect(answer.status).toBe(200);
  expectSpecValid('post', `${T}search/`, 200, answer.body);
  return (answer.body as { results: SearchResult[] }).results;
}

async function makePdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage();
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 750 - i * 16, size: 11, font }));
  return pdf.save();
}

async function makeDocx(paragraphs: string[]): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join('') +
      '</w:body></w:document>',
  );
  return zip.generateAsync({ type: 'uint8array' });
}

describe('documents: training every supported type', () => {
  let server: Sandbox;
  let pathway: string;
  beforeAll(async () => {
    server = await box();
    pathway = await createMentor(server, 'Document Mentor');
  });

  it('trains txt, md, html, csv, json, pdf and docx, and finds a unique phrase from each with search/', async () => {
    const files: [string, string | Uint8Array, string][] = [
      ['notes.txt', 'Plain notes.\n\nThe aardvark quasar appears only in the text file.', 'aardvark quasar'],
      ['guide.md', '# Guide\n\nSome *markdown* with the **bumblebee nebula** phrase.\n', 'bumblebee nebula'],
      [
        'page.html',
        '<html><head><title>Page</title><script>var hidden = "scriptonly zeppelin";</script><style>.x{}</style></head>' +
          '<body><h1>Heading</h1><p>The chinchilla pulsar &amp; friends.</p></body></html>',
        'chinchilla pulsar',
      ],
      ['table.csv', 'term,definition\ndingo,"The dingo comet is a csv-only phrase"\n', 'dingo comet'],
      [
        'data.json',
        JSON.stringify({ unit: { title: 'JSON unit', secret: 'the emu galaxy' }, tags: ['a', 'b'] }),
        'emu galaxy',
      ],
      [
        'slides.pdf',
        await makePdf(['Lecture slides', 'The flamingo supernova is inside the PDF.']),
        'flamingo supernova',
      ],
      ['essay.docx', await makeDocx(['Essay draft', 'The gecko meteor hides in the DOCX.']), 'gecko meteor'],
    ];
    const trained: [TrainAnswer, string, string][] = [];
    for (const [name, content, phrase] of files)
      trained.push([await train(server, pathway, name, content), phrase, name]);
    for (const [answer, phrase, name] of trained) {
      const task = await settle(server, answer.task_id);
      expect(task, name).toEqual({ status: 'completed', message: 'Training document completed successfully' });
      const doc = await getDoc(server, answer.document_id);
      expect(doc).toMatchObject({ training_status: 'trained', is_trained: true, document_name: name, pathway });
      expect(doc.tokens).toBeGreaterThan(0);
      expect(doc.chunk_count).toBeGreaterThan(0);
      expect(doc.last_trained_at).not.toBeNull();
      const results = await search(server, pathway, phrase);
      expect(results[0], `${name}: ${phrase}`).toBeDefined();
      expect(results[0]!.document_id).toBe(Number(answer.document_id));
      expect(results[0]!.page_content.toLowerCase()).toContain(phrase);
      expect(results[0]!.snippet).toContain('**');
      expect(results[0]!.score).toBeGreaterThan(0);
    }
    // Script content of an HTML page is not indexed.
    expect(await search(server, pathway, 'scriptonly zeppelin')).toEqual([]);
    const sources = await call(server, 'POST', `${docs(server)}sources/`, {
      json: { query: 'flamingo supernova', pathway },
    });
    expect(sources.status).toBe(200);
    expectSpecValid('post', `${T}sources/`, 200, sources.body);
    expect((sources.body as { source: string; confidence_level: number }[])[0]).toMatchObject({ source: 'slides.pdf' });
    expect((sources.body as { confidence_level: number }[])[0]!.confidence_level).toBeGreaterThan(50);
  });

  it('stores the SHA-256 of the content and the file under <dataDir>/files/', async () => {
    const content = 'Hash me: the ibis asteroid.';
    const answer = await train(server, pathway, 'hash.txt', content);
    await settle(server, answer.task_id);
    const doc = await getDoc(server, answer.document_id);
    expect(doc.content_hash).toBe(createHash('sha256').update(content).digest('hex'));
    const dataDir = server.db.name.replace(/[/\\]sandbox\.sqlite$/, '');
    expect(readdirSync(join(dataDir, 'files', server.org)).length).toBeGreaterThan(0);
  });

  it('chunks long documents with overlap and ranks passages by BM25', async () => {
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i) => `Sentence ${i} talks about general course logistics.`).join(' ');
    const long = `${filler(150)}\n\nThe jackal quasar is near the end. ${filler(150)}`;
    const answer = await train(server, pathway, 'long.txt', long);
    await settle(server, answer.task_id);
    const doc = await getDoc(server, answer.document_id);
    expect(doc.chunk_count).toBeGreaterThan(2);
    expect(doc.tokens).toBe(Math.ceil(long.length / 4));
    const results = await search(server, pathway, 'jackal quasar logistics');
    expect(results[0]!.page_content).toContain('jackal quasar');
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("scores passages by BM25 on the mentor's own documents: real, positive, the answer first", async () => {
    const small = await createMentor(server, 'Biology Mentor');
    const files: Record<string, string> = {
      'plants.md': 'Plants are green. Photosynthesis happens in the leaves, and we compare leaves.',
      'cells.md': 'Cells are small. Photosynthesis needs cells; compare the cells of plants.',
      'answer.md':
        'The stages of photosynthesis are the light reactions and the Calvin cycle, which stores energy in glucose.',
      'animals.md': 'Animals are not plants. Photosynthesis is what animals lack; compare their diets.',
      'roots.md': 'Water is absorbed by roots. The roots are underground.',
      'light.md': 'Light is energy. The sun gives light to plants, which are green.',
    };
    for (const [name, text] of Object.entries(files))
      await settle(server, (await train(server, small, name, text)).task_id);
    const question = 'What are the stages of photosynthesis?';
    const results = await search(server, small, question);
    // Every word is in most of these passages: FTS5's own bm25() floors such words to ~0 and scored them all 0.00.
    expect(results[0]!.document_name).toBe('answer.md');
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Math.min(...scores)).toBeGreaterThan(0.01);

    // The mentor's own figures: documents of another mentor change nothing.
    const other = await createMentor(server, 'Other Mentor');
    for (let i = 0; i < 4; i++) {
      await settle(server, (await train(server, other, `o${i}.md`, 'Photosynthesis photosynthesis stages.')).task_id);
    }
    expect((await search(server, small, question)).map((r) => r.score)).toEqual(scores);

    // Okapi BM25 (k1 1.2, b 0.75, Lucene's IDF), worked by hand: 2 one-passage documents, "zebra" in the first.
    const two = await createMentor(server, 'Two Documents');
    await settle(server, (await train(server, two, 'z.txt', 'zebra')).task_id);
    await settle(server, (await train(server, two, 'y.txt', 'yak yak')).task_id);
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 1) / 1.5));
    const [zebra] = await search(server, two, 'Zebra?');
    expect(zebra!.score).toBeCloseTo(expected, 3);
  });

  it('ends a corrupt PDF, a corrupt DOCX and an unsupported type as failed, with the reason', async () => {
    const corrupt = await train(server, pathway, 'broken.pdf', '%PDF-1.4\nthis is not really a pdf\n%%EOF');
    const badDocx = await train(server, pathway, 'broken.docx', 'PK not a zip');
    const video = await train(server, pathway, 'movie.mp4', new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]));
    const cases: [TrainAnswer, RegExp][] = [
      [corrupt, /^Could not read the PDF/],
      [badDocx, /^Could not read the DOCX file/],
      [video, /^Unsupported document type: mp4/],
    ];
    for (const [answer, reason] of cases) {
      const task = await settle(server, answer.task_id);
      expect(task.status).toBe('failed');
      expect(task.message).toMatch(/^Training document failed: /);
      const doc = await getDoc(server, answer.document_id);
      expect(doc.training_status).toBe('failed');
      expect(doc.is_trained).toBe(false);
      expect(doc.failure_reason).toMatch(reason);
    }
    const empty = await train(server, pathway, 'scan.pdf', await makePdf([]));
    await settle(server, empty.task_id);
    expect((await getDoc(server, empty.document_id)).failure_reason).toMatch(/No extractable text/);
  });

  it('keeps non-ASCII and quoted file names, and refuses a malformed multipart body', async () => {
    const name = 'Notes – élan "v2".md';
    const answer = await train(server, pathway, name, '# Café notes about the yak comet');
    await settle(server, answer.task_id);
    expect((await getDoc(server, answer.document_id)).document_name).toBe(name);
    const res = await fetch(`${server.url}${docs(server)}train/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="pathway"\r\n\r\nno closing boundary',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'Invalid request data' });
  });

  it('takes the type from `type` when it is an extension, and sniffs files without one', async () => {
    const declared = await call(server, 'POST', `${docs(server)}train/`, {
      form: trainForm(pathway, new Blob(['# Declared markdown with the koala comet']), 'README', { type: 'md' }),
    });
    const sniffed = await train(
      server,
      pathway,
      'scan-without-extension',
      await makePdf(['The lemur pulsar in an unnamed PDF']),
    );
    await settle(server, (declared.body as TrainAnswer).task_id);
    await settle(server, sniffed.task_id);
    expect((await getDoc(server, (declared.body as TrainAnswer).document_id)).document_type).toBe('md');
    expect((await getDoc(server, sniffed.document_id)).document_type).toBe('pdf');
    expect((await search(server, pathway, 'lemur pulsar'))[0]!.document_id).toBe(Number(sniffed.document_id));
  });
});

describe('documents: validation, limits and errors', () => {
  let server: Sandbox;
  let pathway: string;
  beforeAll(async () => {
    server = await box({ uploadLimitBytes: 4096 });
    pathway = await createMentor(server, 'Limits Mentor');
  });

  it('answers 413 File too large above the configured limit, checked while streaming', async () => {
    const justOver = await call(server, 'POST', `${docs(server)}train/`, {
      form: trainForm(pathway, new Blob(['x'.repeat(5000)]), 'big.txt'),
    });
    expect(justOver).toMatchObject({ status: 413, body: { detail: 'File too large' } });
    // Far above the limit: refused from Content-Length / while streaming, never buffered whole.
    const huge = await call(server, 'POST', `${docs(server)}train/`, {
      form: trainForm(pathway, new Blob([new Uint8Array(8 * 1024 * 1024)]), 'huge.txt'),
    });
    expect(huge).toMatchObject({ status: 413, body: { detail: 'File too large' } });
    // The spec declares 413 'File too large' for uploads on train/sessions/{session_id}/; the body is the same.
    expectSpecValid('post', `${T}train/sessions/{session_id}/`, 413, huge.body);
    const ok = await call(server, 'POST', `${docs(server)}train/`, {
      form: trainForm(pathway, new Blob(['x'.repeat(4000)]), 'fits.txt'),
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a missing pathway, type or file with 400 Invalid request data', async () => {
    const noPathway = new FormData();
    noPathway.set('file', new Blob(['a']), 'a.txt');
    noPathway.set('type', 'file');
    const noType = new FormData();
    noType.set('file', new Blob(['a']), 'a.txt');
    noType.set('pathway', pathway);
    const noFile = new FormData();
    noFile.set('pathway', pathway);
    noFile.set('type', 'file');
    for (const form of [noPathway, noType, noFile]) {
      const bad = await call(server, 'POST', `${docs(server)}train/`, { form });
      expect(bad).toMatchObject({ status: 400, body: { detail: 'Invalid request data' } });
      expectSpecValid('post', `${T}train/`, 400, bad.body);
    }
    const badAccess = await call(server, 'POST', `${docs(server)}train/`, {
      form: trainForm(pathway, new Blob(['a']), 'a.txt', { access: 'secret' }),
    });
    expect(badAccess.status).toBe(400);
  });

  it('answers 404 Mentor not found for an unknown, deleted or other-tenant pathway', async () => {
    const deleted = await createMentor(server, 'Gone Mentor');
    expect(
      (await call(server, 'DELETE', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/${deleted}/`)).status,
    ).toBe(204);
    const other = await call(
      server,
      'GET',
      `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/`,
      { key: server.otherOrg.apiKey },
    );
    const otherCreated = await call(
      server,
      'POST',
      `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/`,
      {
        key: server.otherOrg.apiKey,
        json: { name: 'Their mentor' },
      },
    );
    expect(other.status).toBe(200);
    const theirs = (otherCreated.body as { unique_id: string }).unique_id;
    for (const p of ['00000000-0000-4000-8000-000000000000', deleted, theirs]) {
      const answer = await call(server, 'POST', `${docs(server)}train/`, {
        form: trainForm(p, new Blob(['a']), 'a.txt'),
      });
      expect(answer).toMatchObject({ status: 404, body: { detail: 'Mentor not found' } });
    }
  });

  it('validates custom_metadata: a flat JSON object with \\w+ keys and string, number or boolean values', async () => {
    for (const bad of [
      'not json',
      '[1,2]',
      '"text"',
      '{"nested":{"a":1}}',
      '{"bad key":"x"}',
      '{"list":[1]}',
      '{"n":null}',
    ]) {
      const answer = await call(server, 'POST', `${docs(server)}train/`, {
        form: trainForm(pathway, new Blob(['a']), 'a.txt', { custom_metadata: bad }),
      });
      expect(answer, bad).toMatchObject({ status: 400, body: { detail: 'Invalid request data or training failed' } });
      expectSpecValid('post', `${T}train/`, 400, answer.body);
    }
    const good = await train(server, pathway, 'meta.txt', 'Metadata test with the marmot rocket', {
      custom_metadata: JSON.stringify({ course_code: 'BIO101', week: 3, required: true }),
    });
    await settle(server, good.task_id);
    const doc = await getDoc(server, good.document_id);
    expect(doc.custom_metadata).toEqual({ course_code: 'BIO101', week: 3, required: true });
    expect(doc.metadata).toEqual({ course_code: 'BIO101', week: 3, required: true });
  });

  it('answers 404 for unknown documents and tasks, 400 for bad search bodies and list parameters', async () => {
    for (const id of ['999999', 'abc']) {
      const get = await call(server, 'GET', `${docs(server)}${id}/`);
      expect(get).toMatchObject({ status: 404, body: { detail: 'Document not found' } });
      expectSpecValid('get', `${T}{document_id}/`, 404, get.body);
      const put = await call(server, 'PUT', `${docs(server)}${id}/`, { json: { pathway, train: true } });
      expect(put).toMatchObject({ status: 404, body: { detail: 'Document not found' } });
      expectSpecValid('put', `${T}{document_id}/`, 404, put.body);
      const del = await call(server, 'DELETE', `${docs(server)}${id}/`);
      expect(del).toMatchObject({ status: 404, body: { detail: 'Document not found' } });
      expectSpecValid('delete', `${T}{document_id}/`, 404, del.body);
    }
    expect(await call(server, 'GET', `${docs(server)}tasks/nope/`)).toMatchObject({ status: 404 });
    for (const json of [{ query: 'x' }, { pathway }, { query: '', pathway }, { query: 'x', pathway, limit: 0 }]) {
      const bad = await call(server, 'POST', `${docs(server)}search/`, { json });
      expect(bad).toMatchObject({ status: 400, body: { detail: 'Invalid request data' } });
      expectSpecValid('post', `${T}search/`, 400, bad.body);
      const badSources = await call(server, 'POST', `${docs(server)}sources/`, { json });
      expect(badSources).toMatchObject({ status: 400, body: { detail: 'Invalid request data' } });
      expectSpecValid('post', `${T}sources/`, 400, badSources.body);
    }
    // Query syntax is never passed to FTS5 raw.
    expect(await search(server, pathway, 'AND OR NOT "unbalanced (* NEAR')).toEqual([]);
    expect((await call(server, 'GET', `${docs(server)}pathways/${pathway}/?limit=abc`)).status).toBe(400);
  });
});

describe('documents: lifecycle, lists, settings, roles and isolation', () => {
  let server: Sandbox;
  let pathway: string;
  beforeAll(async () => {
    server = await box();
    pathway = await createMentor(server, 'Lifecycle Mentor');
  });

  it('untrains, retrains, changes access and deletes a document', async () => {
    const answer = await train(server, pathway, 'cycle.txt', 'Lifecycle notes about the narwhal galaxy.');
    await settle(server, answer.task_id);
    const one = `${docs(server)}${answer.document_id}/`;
    expect(await search(server, pathway, 'narwhal')).toHaveLength(1);

    const untrained = await call(server, 'PUT', one, { json: { pathway, train: false } });
    expect(untrained.status).toBe(200);
    expectSpecValid('put', `${T}{document_id}/`, 200, untrained.body);
    expect(untrained.body).toMatchObject({ training_status: 'untrained', is_trained: false });
    expect(await search(server, pathway, 'narwhal')).toEqual([]);

    const form = new FormData();
    form.set('pathway', pathway);
    form.set('train', 'true');
    form.set('access', 'public');
    form.set('document_name', 'Cycle notes');
    const retrained = await call(server, 'PUT', one, { form });
    expect(retrained.status).toBe(200);
    expectSpecValid('put', `${T}{document_id}/`, 200, retrained.body);
    expect(retrained.body).toMatchObject({
      training_status: 'pending',
      access: 'public',
      document_name: 'Cycle notes',
    });
    const doc = retrained.body as Doc & { task_id: string };
    expect(doc.task_id).not.toBe(answer.task_id);
    expect(await settle(server, doc.task_id)).toMatchObject({ status: 'completed' });
    expect((await getDoc(server, answer.document_id)).training_status).toBe('trained');
    expect(await search(server, pathway, 'narwhal')).toHaveLength(1);

    const bad = await call(server, 'PUT', one, { json: { pathway, access: 'everyone' } });
    expect(bad).toMatchObject({ status: 400, body: { detail: 'Invalid request data' } });
    expectSpecValid('put', `${T}{document_id}/`, 400, bad.body);
    expect((await call(server, 'PUT', one, { json: { pathway, train: 'maybe' } })).status).toBe(400);
    expect((await call(server, 'PUT', one, { json: { pathway, custom_metadata: '{"a":{}}' } })).status).toBe(400);
    expect((await call(server, 'PUT', one, { json: { pathway: 'no-such-mentor' } })).status).toBe(400);

    const stored = server.db
      .prepare('SELECT file_path FROM documents WHERE id = ?')
      .get(Number(answer.document_id)) as { file_path: string };
    const dataDir = server.db.name.replace(/[/\\]sandbox\.sqlite$/, '');
    expect(existsSync(join(dataDir, 'files', stored.file_path))).toBe(true);
    const removed = await call(server, 'DELETE', one);
    expect(removed.status).toBe(204);
    expectSpecValid('delete', `${T}{document_id}/`, 204, removed.body);
    expect((await call(server, 'GET', one)).status).toBe(404);
    expect(await search(server, pathway, 'narwhal')).toEqual([]);
    expect(existsSync(join(dataDir, 'files', stored.file_path))).toBe(false);
    // The task of a deleted document still answers.
    expect((await call(server, 'GET', `${docs(server)}tasks/${doc.task_id}/`)).status).toBe(200);
  });

  it('cancels a pending training when the document is untrained or deleted meanwhile', async () => {
    const answer = await train(server, pathway, 'race.txt', 'The ocelot meteor races the worker.');
    const untrained = await call(server, 'PUT', `${docs(server)}${answer.document_id}/`, {
      json: { pathway, train: false },
    });
    expect((untrained.body as Doc).training_status).toBe('untrained');
    expect(await settle(server, answer.task_id)).toMatchObject({
      status: 'failed',
      message: 'Training cancelled: the document was untrained',
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await getDoc(server, answer.document_id)).training_status).toBe('untrained');
    expect(await search(server, pathway, 'ocelot')).toEqual([]);
  });

  it('retrains documents whose retrain interval has passed, checked when the worker starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-documents-'));
    blockDirs.push(dataDir);
    const first = await box({ dataDir });
    const mentor = await createMentor(first, 'Retrain Mentor');
    const answer = await train(first, mentor, 'weekly.txt', 'Weekly notes about the tapir nebula.');
    await settle(first, answer.task_id);
    await call(first, 'POST', `${docs(first)}${answer.document_id}/settings/`, { json: { retrain_interval_days: 1 } });
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    first.db
      .prepare('UPDATE documents SET last_trained_at = ? WHERE id = ?')
      .run(twoDaysAgo, Number(answer.document_id));
    await first.close();
    // The same folder again: the data is kept, and the due document is queued and trained again.
    const second = await box({ dataDir });
    const deadline = Date.now() + 10_000;
    let doc = await getDoc(second, answer.document_id);
    while (doc.last_trained_at === twoDaysAgo && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      doc = await getDoc(second, answer.document_id);
    }
    expect(doc.training_status).toBe('trained');
    expect(Date.parse(doc.last_trained_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await search(second, mentor, 'tapir nebula')).toHaveLength(1);
  });

  it('gets and sets retrain_interval_days in settings/', async () => {
    const answer = await train(server, pathway, 'settings.txt', 'Settings doc.');
    const path = `${docs(server)}${answer.document_id}/settings/`;
    const initial = await call(server, 'GET', path);
    expect(initial).toMatchObject({ status: 200, body: { retrain_interval_days: null } });
    expectSpecValid('get', `${T}{document_id}/settings/`, 200, initial.body);
    const set = await call(server, 'POST', path, { json: { retrain_interval_days: 7 } });
    expect(set).toMatchObject({ status: 200, body: { retrain_interval_days: 7 } });
    expectSpecValid('post', `${T}{document_id}/settings/`, 200, set.body);
    expect((await call(server, 'GET', path)).body).toEqual({ retrain_interval_days: 7 });
    expect((await call(server, 'POST', path, { json: { retrain_interval_days: -1 } })).status).toBe(400);
    expect((await call(server, 'POST', path, { json: { retrain_interval_days: null } })).body).toEqual({
      retrain_interval_days: null,
    });
    expect((await call(server, 'GET', `${docs(server)}424242/settings/`)).status).toBe(404);
  });

  it('lists a pathway with limit, offset and search in a DRF limit/offset envelope, newest first', async () => {
    const other = await createMentor(server, 'List Mentor');
    for (let i = 1; i <= 5; i++) await train(server, other, `chapter-${i}.txt`, `Chapter ${i} text.`);
    const page = await call(server, 'GET', `${docs(server)}pathways/${other}/?limit=2&offset=2`);
    expect(page.status).toBe(200);
    expectSpecValid('get', `${T}pathways/{pathway}/`, 200, page.body);
    const body = page.body as Page<Doc>;
    expect(body.count).toBe(5);
    expect(body.results.map((d) => d.document_name)).toEqual(['chapter-3.txt', 'chapter-2.txt']);
    expect(new URL(body.next!).searchParams.get('offset')).toBe('4');
    expect(new URL(body.previous!).searchParams.get('offset')).toBe('0');
    const found = (await call(server, 'GET', `${docs(server)}pathways/${other}/?search=chapter-4`)).body as Page<Doc>;
    expect(found.results.map((d) => d.document_name)).toEqual(['chapter-4.txt']);
    const wildcard = (await call(server, 'GET', `${docs(server)}pathways/${other}/?search=%25`)).body as Page<Doc>;
    expect(wildcard.count).toBe(0);
    const none = (await call(server, 'GET', `${docs(server)}pathways/unknown-pathway/`)).body as Page<Doc>;
    expect(none).toMatchObject({ count: 0, results: [] });
  });

  it('trains from a URL: queued (train/ with type url) and direct (train/retriever/)', async () => {
    const site: Server = createServer((req, res) => {
      if (req.url === '/page.html') {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body><p>The puffin quasar lives on a web page.</p></body></html>');
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const queued = await call(server, 'POST', `${docs(server)}train/`, {
        json: { pathway, url: `${url}/page.html`, type: 'url', access: 'public' },
      });
      expect(queued.status).toBe(200);
      expectSpecValid('post', `${T}train/`, 200, queued.body);
      expect(await settle(server, (queued.body as TrainAnswer).task_id)).toMatchObject({ status: 'completed' });
      expect((await search(server, pathway, 'puffin quasar'))[0]!.document_name).toBe(`${url}/page.html`);
      const missing = await call(server, 'POST', `${docs(server)}train/`, {
        json: { pathway, url: `${url}/gone.html`, type: 'url' },
      });
      expect(await settle(server, (missing.body as TrainAnswer).task_id)).toMatchObject({ status: 'failed' });

      const direct = await call(server, 'POST', `${docs(server)}train/retriever/`, {
        json: { pathway, url: 'data:text/plain,The%20quokka%20nebula%20direct.' },
      });
      expect(direct).toMatchObject({ status: 200, body: { detail: 'Document trained successfully' } });
      expectSpecValid('post', `${T}train/retriever/`, 200, direct.body);
      expect(await search(server, pathway, 'quokka nebula')).toHaveLength(1);
      const form = new FormData();
      form.set('pathway', pathway);
      form.set('text', 'Direct text about the raven pulsar.');
      expect((await call(server, 'POST', `${docs(server)}train/retriever/`, { form })).status).toBe(200);
      expect(await search(server, pathway, 'raven pulsar')).toHaveLength(1);
      for (const json of [
        { pathway },
        { url: `${url}/page.html` },
        { pathway, url: `${url}/gone.html` },
        { pathway, url: 'ftp://x/y' },
      ]) {
        const bad = await call(server, 'POST', `${docs(server)}train/retriever/`, { json });
        expect(bad).toMatchObject({ status: 400, body: { detail: 'Invalid request data or training failed' } });
        expectSpecValid('post', `${T}train/retriever/`, 400, bad.body);
      }
    } finally {
      site.close();
    }
  });

  it('lets students read and search public documents only, and refuses them training and changes', async () => {
    const open = await train(server, pathway, 'open.txt', 'Public notes about the stoat comet.', { access: 'public' });
    const closed = await train(server, pathway, 'closed.txt', 'Private notes about the stoat comet.');
    await settle(server, open.task_id);
    await settle(server, closed.task_id);
    const student = docs(server, server.studentUser);
    const as = { key: server.studentKey };
    expect((await call(server, 'GET', `${student}${open.document_id}/`, as)).status).toBe(200);
    expect(await call(server, 'GET', `${student}${closed.document_id}/`, as)).toMatchObject({
      status: 404,
      body: { detail: 'Document not found' },
    });
    const results = await search(server, pathway, 'stoat comet', server.studentKey, server.studentUser);
    expect(results.map((r) => r.document_name)).toEqual(['open.txt']);
    const list = (await call(server, 'GET', `${student}pathways/${pathway}/?limit=100`, as)).body as Page<Doc>;
    expect(list.results.every((d) => d.access === 'public')).toBe(true);
    const form = trainForm(pathway, new Blob(['x']), 'x.txt');
    expect((await call(server, 'POST', `${student}train/`, { ...as, form })).status).toBe(403);
    expect(
      (await call(server, 'PUT', `${student}${open.document_id}/`, { ...as, json: { pathway, train: false } })).status,
    ).toBe(403);
    expect((await call(server, 'DELETE', `${student}${open.document_id}/`, as)).status).toBe(403);
    expect((await call(server, 'GET', `${student}${open.document_id}/settings/`, as)).status).toBe(403);
    expect(
      (await call(server, 'POST', `${student}train/retriever/`, { ...as, json: { pathway, url: 'data:,x' } })).status,
    ).toBe(403);
  });

  it('never shows another tenant its documents', async () => {
    const answer = await train(server, pathway, 'ours.txt', 'Our tenant notes about the wombat pulsar.');
    await settle(server, answer.task_id);
    const theirs = `/api/ai-index/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/documents/`;
    const as = { key: server.otherOrg.apiKey };
    // Our org in the path with their key: 404 Organization not found.
    expect(await call(server, 'GET', `${docs(server)}${answer.document_id}/`, as)).toMatchObject({
      status: 404,
      body: { detail: 'Organization not found' },
    });
    // Their org in the path: our document and pathway do not exist for them.
    expect(await call(server, 'GET', `${theirs}${answer.document_id}/`, as)).toMatchObject({
      status: 404,
      body: { detail: 'Document not found' },
    });
    expect((await call(server, 'DELETE', `${theirs}${answer.document_id}/`, as)).status).toBe(404);
    const search = await call(server, 'POST', `${theirs}search/`, { ...as, json: { query: 'wombat pulsar', pathway } });
    expect(search.body).toEqual({ results: [] });
    const list = await call(server, 'GET', `${theirs}pathways/${pathway}/`, as);
    expect(list.body).toMatchObject({ count: 0, results: [] });
    expect(await call(server, 'GET', `${theirs}tasks/${answer.task_id}/`, as)).toMatchObject({ status: 404 });
  });
});

describe('documents: demo data', () => {
  let server: Sandbox;
  let started: number;
  beforeAll(async () => {
    const t = Date.now();
    // Only the areas this file is about: the demo chat history of the analytics area is not needed here.
    server = await box({ seed: 'demo', areas: [coreArea, mentorsArea, documentsArea] });
    started = Date.now() - t;
  });

  it('seeds quickly', () => {
    expect(started).toBeLessThan(2000);
  });

  it('gives each demo mentor 5–15 documents, mostly trained and searchable, with 1–2 failed or untrained', async () => {
    const mentors = (await call(server, 'GET', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/?page_size=100`))
      .body as Page<{
      name: string;
      unique_id: string;
    }>;
    expect(mentors.count).toBe(12);
    for (const mentor of mentors.results) {
      const list = await call(server, 'GET', `${docs(server)}pathways/${mentor.unique_id}/?limit=100`);
      expectSpecValid('get', `${T}pathways/{pathway}/`, 200, list.body);
      const items = (list.body as Page<Doc>).results;
      expect(items.length).toBeGreaterThanOrEqual(5);
      expect(items.length).toBeLessThanOrEqual(15);
      const bad = items.filter((d) => d.training_status !== 'trained');
      expect(bad.length).toBeGreaterThanOrEqual(1);
      expect(bad.length).toBeLessThanOrEqual(2);
      for (const d of bad.filter((b) => b.training_status === 'failed')) expect(d.failure_reason).toBeTruthy();
      const trained = items.filter((d) => d.training_status === 'trained');
      expect(trained.every((d) => d.tokens! > 0 && d.content_hash)).toBe(true);
      const word = trained[0]!.document_name.replace(/^Week \d+ - /, '').split(/[\s.]/)[0]!;
      expect((await search(server, mentor.unique_id, word)).length, `${mentor.name}: ${word}`).toBeGreaterThan(0);
    }
    const calculus = mentors.results.find((m) => m.name === 'Calculus Coach')!;
    const hits = await search(server, calculus.unique_id, 'derivative chain rule');
    expect(hits.length).toBeGreaterThan(0);
  });

  it('retrains a demo document from its stored file', async () => {
    const row = server.db
      .prepare(
        `SELECT id FROM documents WHERE org = ? AND training_status = 'trained' AND document_type = 'pdf' LIMIT 1`,
      )
      .get(server.org) as { id: number };
    const retrained = await call(server, 'PUT', `${docs(server)}${row.id}/`, { json: { train: true } });
    const task = await settle(server, (retrained.body as { task_id: string }).task_id);
    expect(task.status).toBe('completed');
    expect((await getDoc(server, row.id)).training_status).toBe('trained');
  });
});
