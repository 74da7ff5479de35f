/**
 * train.preview on real files against the real sandbox: what each file of a messy folder is classed as, and why.
 * Tests run as root, where chmod 000 does not make a file unreadable; unreadable files here are a named pipe (FIFO)
 * and a broken symlink, and a file that vanishes is covered by the job tests ('File vanished since the preview').
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreviewFile } from '../../src/shared/contract';
import { inspectFile } from '../../src/main/engine/train/hash';
import { unreadableReason } from '../../src/main/engine/train/scan';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { answer, proxy } from './proxy';
import { createMentor, setup, text, tree, waitForJob } from './setup';

const byPath = (files: PreviewFile[]) => new Map(files.map((file) => [file.relativePath, file]));

function messyTree(): string {
  const root = tree({
    'intro.md': text('Intro'),
    'notes/week 1.txt': text('Week 1'),
    'notes/ünïcødé 😀 notes.txt': text('Unicode'),
    'notes/deep/a/b/limits.md': text('Limits'),
    'notes/café/résumé des séances.html': '<h1>Résumé</h1><p>Derivatives.</p>',
    '.hidden.txt': 'hidden',
    '.git/config': '[core]',
    '.cache/stuff.txt': 'cache',
    'node_modules/pkg/readme.md': 'a dependency',
    '.DS_Store': 'mac',
    'notes/Thumbs.db': 'windows',
    'desktop.ini': 'windows',
    '~$report.docx': 'lock',
    'diagram.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    Makefile: 'all:',
    'empty.txt': '',
    'big.txt': 'x'.repeat(5000),
  });
  symlinkSync('..', join(root, 'notes', 'loop'));
  symlinkSync(join(root, 'notes'), join(root, 'notes-link'));
  symlinkSync(join(root, 'missing.txt'), join(root, 'broken.txt'));
  symlinkSync(join(root, 'intro.md'), join(root, 'intro-link.md'));
  execFileSync('mkfifo', [join(root, 'pipe.txt')]);
  return root;
}

describe('train.preview', () => {
  it('classes every file of a messy folder, with reasons, and sends nothing', async () => {
    const { server, engine, mentor } = await setup();
    const root = messyTree();
    const requestsBefore = server.db.prepare('SELECT count(*) AS n FROM documents').get() as { n: number };
    const preview = await engine.invoke('train.preview', { mentor, paths: [root], maxFileBytes: 1000 });
    const files = byPath(preview.files);
    const expectClass = (path: string, cls: string, reason?: string | RegExp) => {
      const file = files.get(path);
      expect(file, `${path} is in the preview`).toBeDefined();
      expect(file!.class, path).toBe(cls);
      if (reason !== undefined) expect(file!.reason, path).toMatch(reason);
    };
    for (const path of [
      'course/intro.md',
      'course/intro-link.md',
      'course/notes/week 1.txt',
      'course/notes/ünïcødé 😀 notes.txt',
      'course/notes/deep/a/b/limits.md',
      'course/notes/café/résumé des séances.html',
    ]) {
      expectClass(path, 'new');
      expect(files.get(path)!.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expectClass('course/.hidden.txt', 'skipped', 'Hidden file');
    expectClass('course/.git', 'skipped', 'Version control folder (.git)');
    expectClass('course/.cache', 'skipped', 'Hidden folder');
    expectClass('course/node_modules', 'skipped', 'Dependency folder (node_modules)');
    expectClass('course/.DS_Store', 'skipped', 'System file (.DS_Store)');
    expectClass('course/notes/Thumbs.db', 'skipped', 'System file (Thumbs.db)');
    expectClass('course/desktop.ini', 'skipped', 'System file (desktop.ini)');
    expectClass('course/~$report.docx', 'skipped', /Office lock file/);
    expectClass(
      'course/diagram.png',
      'unsupported',
      '.png is not a type known to train (send it with "other file types")',
    );
    expectClass('course/Makefile', 'unsupported', /^No extension, so not a type known to train/);
    expectClass('course/empty.txt', 'skipped', 'Empty file (nothing to train)');
    expectClass('course/big.txt', 'too_large', /Larger than the 1000 B limit \(4\.9 KB\)/);
    expectClass('course/notes/loop', 'skipped', 'Symlink loop: points back to "course"');
    expectClass('course/notes-link', 'skipped', 'Same folder as "course/notes" (reached twice)');
    expectClass('course/broken.txt', 'unreadable', 'Broken link (its target is missing)');
    expectClass('course/pipe.txt', 'unreadable', 'Not a regular file (named pipe)');
    // Nothing inside a skipped folder is listed, and nothing is listed twice.
    expect([...files.keys()].some((path) => path.startsWith('course/.git/') || path.includes('node_modules/'))).toBe(
      false,
    );
    expect(preview.totalFiles).toBe(preview.files.length);
    expect(new Set(preview.files.map((f) => f.relativePath)).size).toBe(preview.files.length);

    expect(preview.classes).toEqual({
      new: 6,
      changed: 0,
      unchanged: 0,
      unsupported: 2,
      too_large: 1,
      skipped: 11,
      unreadable: 2,
    });
    // Why the skipped ones are skipped, each reason counted on its own (the preview names them apart).
    expect(preview.skipped).toEqual([
      { kind: 'folder', files: 5 },
      { kind: 'system', files: 4 },
      { kind: 'empty', files: 1 },
      { kind: 'hidden', files: 1 },
    ]);
    expect(preview.toSend.files).toBe(6);
    expect(preview.toSend.bytes).toBe(
      [...files.values()].filter((f) => f.class === 'new').reduce((sum, f) => sum + f.size, 0),
    );
    expect(preview.estimateSeconds).toBeGreaterThan(0);
    expect(preview.byType.find((t) => t.type === 'md')).toMatchObject({ files: 3 });
    expect(preview.warnings.join('\n')).toMatch(/larger than the 1000 B limit/);
    expect(preview.warnings.join('\n')).toMatch(/could not be read/);
    expect(preview.mentor.uniqueId).toBe(mentor);
    // Nothing was sent.
    expect((server.db.prepare('SELECT count(*) AS n FROM documents').get() as { n: number }).n).toBe(requestsBefore.n);
  });

  it('sends a file above the 25 MB tenants often accept, with a warning, unless the admin set a limit', async () => {
    const { engine, mentor } = await setup();
    const root = tree({ 'small.txt': text('Small'), 'big.txt': Buffer.alloc(26 * 1024 * 1024, 'a') });
    const preview = await engine.invoke('train.preview', { mentor, paths: [root] });
    const big = byPath(preview.files).get('course/big.txt')!;
    // The spec names no upload size: the tenant decides, and a 413 would fail this file alone.
    expect(big.class).toBe('new');
    expect(big.warning).toBe(
      '26 MB: above the 25 MB many tenants accept, so the tenant may refuse it (413 File too large)',
    );
    expect(byPath(preview.files).get('course/small.txt')!.warning).toBeNull();
    expect(preview.toSend.files).toBe(2);
    expect(preview.warnings).toContain(
      '1 file(s) are larger than 25 MB: the tenant may refuse them; the others are trained either way',
    );
    // Asked for: a limit of the admin's holds the file back.
    const limited = await engine.invoke('train.preview', { mentor, paths: [root], maxFileBytes: 25 * 1024 * 1024 });
    expect(byPath(limited.files).get('course/big.txt')).toMatchObject({ class: 'too_large', warning: null });
  });

  it('sends files of other types too when asked, each with a warning, and the tenant decides', async () => {
    const { server, engine, mentor } = await setup();
    const root = tree({ 'notes.md': text('Notes'), 'slides.pptx': 'not really slides', README: 'plain words' });
    const plain = await engine.invoke('train.preview', { mentor, paths: [root] });
    expect(plain.classes).toMatchObject({ new: 1, unsupported: 2 });
    const asked = await engine.invoke('train.preview', { mentor, paths: [root], otherTypes: true });
    expect(asked.classes).toMatchObject({ new: 3, unsupported: 0 });
    const files = byPath(asked.files);
    expect(files.get('course/slides.pptx')!.warning).toMatch(
      /^\.pptx files are not among the types known to train \(txt, md, html, htm, csv, json, pdf, docx\)/,
    );
    expect(files.get('course/README')!.warning).toMatch(/^Files without an extension are not among/);
    expect(files.get('course/notes.md')!.warning).toBeNull();
    // Sent: the sandbox cannot read a .pptx, so that document fails there, and the others train.
    const job = await waitForJob(engine, (await engine.invoke('train.start', { previewId: asked.id })).jobId);
    expect(job.counts).toMatchObject({ uploaded: 3 });
    const statuses = server.db
      .prepare('SELECT document_name, training_status FROM documents WHERE pathway = ? ORDER BY document_name')
      .all(mentor);
    expect(statuses).toContainEqual({ document_name: 'course/notes.md', training_status: 'trained' });
    expect(statuses).toContainEqual({ document_name: 'course/slides.pptx', training_status: 'failed' });
  });

  it('pages through files by class and offset', async () => {
    const { engine, mentor } = await setup();
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`doc-${String(i).padStart(2, '0')}.txt`] = text(`Doc ${i}`);
    for (let i = 0; i < 5; i++) files[`img-${i}.png`] = 'png';
    const preview = await engine.invoke('train.preview', { mentor, paths: [tree(files)] });
    const page = await engine.invoke('train.previewFiles', { previewId: preview.id, offset: 10, limit: 5 });
    expect(page.total).toBe(35);
    expect(page.files.map((f) => f.relativePath)).toEqual(
      ['10', '11', '12', '13', '14'].map((n) => `course/doc-${n}.txt`),
    );
    const unsupported = await engine.invoke('train.previewFiles', {
      previewId: preview.id,
      classes: ['unsupported'],
    });
    expect(unsupported.total).toBe(5);
    expect(unsupported.files.every((f) => f.class === 'unsupported')).toBe(true);
    const missing = await engine.call('train.previewFiles', { previewId: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('applies include and exclude globs on the relative path; exclude wins', async () => {
    const { engine, mentor } = await setup();
    const root = tree({
      'a.md': text('A'),
      'b.txt': text('B'),
      'data.csv': 'x,y\n1,2\n',
      'page.html': '<p>page</p>',
      'drafts/draft.md': text('Draft'),
      'deep/more/c.md': text('C'),
    });
    const preview = await engine.invoke('train.preview', {
      mentor,
      paths: [root],
      include: ['*.md', '*.txt', '*.csv'],
      exclude: ['*.csv', 'drafts/**'],
    });
    const files = byPath(preview.files);
    expect(files.get('course/a.md')!.class).toBe('new');
    expect(files.get('course/b.txt')!.class).toBe('new');
    expect(files.get('course/deep/more/c.md')!.class).toBe('new');
    expect(files.get('course/data.csv')).toMatchObject({ class: 'skipped', reason: 'Excluded by pattern "*.csv"' });
    expect(files.get('course/drafts/draft.md')).toMatchObject({
      class: 'skipped',
      reason: 'Excluded by pattern "drafts/**"',
    });
    expect(files.get('course/page.html')).toMatchObject({
      class: 'skipped',
      reason: 'Not matched by the include patterns',
    });
  });

  it('keeps the dropped folder name first, names single files by their own name, and skips a repeated name', async () => {
    const { engine, mentor } = await setup();
    const first = tree({ 'notes.md': text('First') }, 'week');
    const second = tree({ 'notes.md': text('Second') }, 'week');
    const single = join(tree({ 'syllabus.txt': text('Syllabus') }, 'other'), 'syllabus.txt');
    const preview = await engine.invoke('train.preview', { mentor, paths: [first, second, single] });
    const paths = preview.files.map((f) => [f.relativePath, f.class, f.path]);
    expect(paths).toContainEqual(['syllabus.txt', 'new', single]);
    const notes = preview.files.filter((f) => f.relativePath === 'week/notes.md');
    expect(notes).toHaveLength(2);
    expect(notes.find((f) => f.class === 'new')!.path).toBe(join(first, 'notes.md'));
    expect(notes.find((f) => f.class === 'skipped')!.reason).toMatch(/same name and path/);
  });

  it('answers an empty folder with a preview of 0 files and a warning', async () => {
    const { engine, mentor } = await setup();
    const empty = join(tempDir(), 'empty course');
    mkdirSync(empty);
    const preview = await engine.invoke('train.preview', { mentor, paths: [empty] });
    expect(preview.totalFiles).toBe(0);
    expect(preview.toSend).toEqual({ files: 0, bytes: 0 });
    expect(preview.estimateSeconds).toBe(0);
    expect(preview.warnings).toContain(`The folder "${empty}" has no files`);
  });

  it('refuses a path that does not exist, naming it', async () => {
    const { engine, mentor } = await setup();
    const real = tree({ 'a.md': text('A') });
    const missing = join(tempDir(), 'no such folder');
    const result = await engine.call('train.preview', { mentor, paths: [real, missing] });
    expect(result).toMatchObject({ ok: false, error: { code: 'validation' } });
    if (result.ok) return;
    expect(result.error.message).toContain(missing);
    expect(result.error.issues).toEqual([{ path: 'paths.1', message: `No such file or folder: ${missing}` }]);
  });

  it('refuses an unknown mentor and an empty path list', async () => {
    const { engine } = await setup();
    const root = tree({ 'a.md': text('A') });
    expect(await engine.call('train.preview', { mentor: 'Nobody', paths: [root] })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringContaining("No mentor 'Nobody'") },
    });
    expect(await engine.call('train.preview', { mentor: 'Calculus', paths: [] })).toMatchObject({
      ok: false,
      error: { code: 'validation', message: expect.stringContaining('Choose at least one file or folder') },
    });
  });

  it("asks for a mentor named by its unique id and for that mentor's documents at once", async () => {
    const server = await sandbox();
    const mentor = await createMentor(server, 'Calculus');
    const arrived: string[] = [];
    let documentsAsked = () => {};
    const documentsSeen = new Promise<void>((resolve) => (documentsAsked = resolve));
    // The mentor's lookup is answered only once the documents were asked for (or after 3 s: then they were not).
    const gate = await proxy(server.url, async (req, res, _payload, send) => {
      const kind = req.url!.includes('/documents/pathways/') ? 'documents' : 'other';
      arrived.push(kind);
      if (kind === 'documents') documentsAsked();
      else if (req.method === 'GET' && req.url!.includes(mentor)) {
        await Promise.race([documentsSeen, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      }
      answer(res, await send());
    });
    try {
      const { engine } = await connect(server, { baseUrl: gate.url });
      const started = performance.now();
      const preview = await engine.invoke('train.preview', { mentor, paths: [tree({ 'a.md': text('A') })] });
      expect(preview.mentor).toEqual({ uniqueId: mentor, name: 'Calculus' });
      expect(preview.classes.new).toBe(1);
      expect(arrived).toContain('documents');
      expect(performance.now() - started).toBeLessThan(2_500);

      // A unique id that names no mentor: refused as before, and no preview is left behind.
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect(
        await engine.call('train.preview', { mentor: unknown, paths: [tree({ 'b.md': text('B') })] }),
      ).toMatchObject({
        ok: false,
        error: { code: 'not_found', message: expect.stringContaining(`No mentor '${unknown}'`) },
      });
    } finally {
      await gate.close();
    }
  });

  it('finds a mentor by name as well as by unique id', async () => {
    const { engine, mentor } = await setup({ mentor: 'Linear Algebra' });
    const preview = await engine.invoke('train.preview', { mentor: 'Linear Algebra', paths: [tree({ 'a.md': 'A' })] });
    expect(preview.mentor).toEqual({ uniqueId: mentor, name: 'Linear Algebra' });
  });
});

describe('reading files', () => {
  it('says why a file cannot be read', async () => {
    const dir = tempDir();
    const gone = join(dir, 'gone.txt');
    writeFileSync(gone, 'soon gone');
    rmSync(gone);
    const error = await inspectFile(gone, () => true).catch((e: unknown) => e);
    expect(unreadableReason(error)).toBe('File vanished while scanning');
    expect(unreadableReason(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('Permission denied');
    expect(unreadableReason(Object.assign(new Error('x'), { code: 'ENOENT' }), 'folder')).toBe(
      'Folder vanished while scanning',
    );
  });

  it('hashes exactly the bytes of the file (SHA-256), small and larger than one read', async () => {
    const dir = tempDir();
    const { createHash } = await import('node:crypto');
    for (const size of [1, 1000, 1024 * 1024, 3 * 1024 * 1024 + 17]) {
      const bytes = Buffer.alloc(size, size % 251);
      const path = join(dir, `f${size}.txt`);
      writeFileSync(path, bytes);
      const facts = await inspectFile(path, () => true);
      expect(facts.size).toBe(size);
      expect(facts.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});
