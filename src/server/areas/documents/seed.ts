import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AreaDeps } from '../../area';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../db';
import type { Rng } from '../../rng';
import { ADMIN_USER, MAIN_ORG, OTHER_ORG } from '../core';
import { activeMentors, type MentorRow } from '../mentor-store';
import { chunkText, estimateTokens } from './chunk';
import { extractTextSync, NO_PDF_TEXT, tidyWhitespace, unsupportedReason, type SupportedType } from './extract';
import { demoNotes, DEMO_SUBJECTS, glossaryCsv, notesAsHtml, notesAsMarkdown, notesAsText } from './demo-text';
import { insertFinishedDocument, type NewDocument } from './lifecycle';
import { simplePdf } from './simple-pdf';
import { filesDir, sha256 } from './source';

const DAY = 86_400_000;

interface DemoFile {
  name: string;
  type: string;
  bytes: Buffer;
  /** The text the index holds (what extraction of `bytes` gives). */
  text: string;
}

/**
 * Demo documents: every demo mentor gets 5–15 small course documents (md, txt, html, pdf, a csv glossary), trained and
 * indexed, plus one or two that failed or were untrained. Files are real, so retraining them works. The other
 * tenant's mentor gets two documents, for isolation tests.
 */
export function seedDocuments(deps: AreaDeps, rng: Rng): void {
  const anchor = deps.now().getTime();
  const madeDirs = new Set<string>();

  const save = (org: string, file: DemoFile): string => {
    const dir = join(filesDir(deps.config.dataDir), org);
    if (!madeDirs.has(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    madeDirs.add(dir);
    const relative = `${org}/${rng.uuid()}.${file.type}`;
    writeFileSync(join(filesDir(deps.config.dataDir), relative), file.bytes, { mode: PRIVATE_FILE_MODE });
    return relative;
  };

  const seedMentor = (mentor: MentorRow, username: string, good: number, bad: number) => {
    const subject = DEMO_SUBJECTS[mentor.name];
    if (!subject) return;
    const base = (
      file: DemoFile,
      access: NewDocument['access'],
      customMetadata: NewDocument['customMetadata'],
    ): NewDocument => ({
      org: mentor.org,
      pathway: mentor.unique_id,
      mentorId: mentor.id,
      username,
      name: file.name,
      type: file.type,
      sourceKind: 'file',
      url: null,
      filePath: save(mentor.org, file),
      fileSize: file.bytes.byteLength,
      contentHash: sha256(file.bytes),
      access,
      customMetadata,
    });
    const dates = () => {
      const created = anchor - rng.int(5, 150) * DAY - rng.int(0, 86_399) * 1000;
      return {
        createdAt: new Date(created).toISOString(),
        trainedAt: new Date(created + rng.int(20, 600) * 1000).toISOString(),
      };
    };

    for (let i = 0; i < good; i++) {
      const week = i + 1;
      const topic = subject.topics[i % subject.topics.length]!;
      let file: DemoFile;
      if (i === good - 1 && good >= 4) {
        const csv = glossaryCsv(rng, subject);
        file = {
          name: `${subject.course} glossary.csv`,
          type: 'csv',
          bytes: Buffer.from(csv),
          text: extractTextSync('csv', Buffer.from(csv)),
        };
      } else {
        const notes = demoNotes(rng, subject, week, topic);
        const type = rng.pick(['md', 'md', 'txt', 'html', 'pdf', 'pdf'] as const);
        const name = `Week ${week} - ${topic}.${type}`;
        if (type === 'pdf') {
          const paragraphs = [notes.title, ...notes.sections.flatMap((s) => [s.heading, ...s.paragraphs])];
          file = { name, type, bytes: simplePdf(paragraphs), text: tidyWhitespace(paragraphs.join('\n\n')) };
        } else {
          const source =
            type === 'md' ? notesAsMarkdown(notes) : type === 'txt' ? notesAsText(notes) : notesAsHtml(notes);
          const bytes = Buffer.from(source);
          file = { name, type, bytes, text: extractTextSync(type as SupportedType, bytes) };
        }
      }
      const chunks = chunkText(file.text);
      const access = rng.chance(0.7) ? 'public' : 'private';
      const metadata = {
        course: subject.course.split(' ').slice(0, 2).join(' '),
        week,
        source: rng.pick(['lecture', 'handout', 'reading']),
      };
      insertFinishedDocument(deps.db, base(file, access, metadata), {
        status: 'trained',
        chunks,
        tokens: estimateTokens(file.text),
        failureReason: null,
        taskId: rng.uuid(),
        ...dates(),
      });
    }

    const kinds = ['scanned', 'video', 'untrained'] as const;
    for (let i = 0; i < bad; i++) {
      const kind = kinds[(rng.int(0, kinds.length - 1) + i) % kinds.length]!;
      const week = rng.int(1, subject.topics.length);
      const when = dates();
      if (kind === 'scanned') {
        const file = { name: `Scanned handout - week ${week}.pdf`, type: 'pdf', bytes: simplePdf([]), text: '' };
        insertFinishedDocument(deps.db, base(file, 'private', null), {
          status: 'failed',
          chunks: [],
          tokens: null,
          failureReason: NO_PDF_TEXT,
          taskId: rng.uuid(),
          createdAt: when.createdAt,
          trainedAt: null,
        });
      } else if (kind === 'video') {
        const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(48)]);
        const file = { name: `Lecture recording week ${week}.mp4`, type: 'mp4', bytes, text: '' };
        insertFinishedDocument(deps.db, base(file, 'private', null), {
          status: 'failed',
          chunks: [],
          tokens: null,
          failureReason: unsupportedReason('mp4'),
          taskId: rng.uuid(),
          createdAt: when.createdAt,
          trainedAt: null,
        });
      } else {
        const notes = demoNotes(rng, subject, week, subject.topics[week - 1]!);
        const source = notesAsMarkdown({ ...notes, title: `${subject.course} - Syllabus 2024 (superseded)` });
        const file = { name: 'Syllabus 2024 (old).md', type: 'md', bytes: Buffer.from(source), text: '' };
        insertFinishedDocument(deps.db, base(file, 'private', { superseded: true }), {
          status: 'untrained',
          chunks: [],
          tokens: estimateTokens(source),
          failureReason: null,
          taskId: rng.uuid(),
          ...when,
        });
      }
    }
  };

  for (const mentor of activeMentors(deps, MAIN_ORG)) seedMentor(mentor, ADMIN_USER, rng.int(4, 13), rng.int(1, 2));
  for (const mentor of activeMentors(deps, OTHER_ORG)) seedMentor(mentor, 'riverside-admin', 2, 0);
}
