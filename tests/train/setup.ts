/** Shared by the training tests: a real sandbox, a real engine with a profile on it, a mentor, and file trees. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Engine } from '../../src/main/engine';
import type { Sandbox, SandboxOptions } from '../../src/server/app';
import { connect } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

export { waitForJob, waitUntil } from '../helpers/engine';

export interface ServerDocument {
  id: number;
  document_name: string;
  content_hash: string | null;
  training_status: string;
  custom_metadata: string | null;
}

export async function createMentor(server: Sandbox, name: string): Promise<string> {
  const created = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name },
  });
  if (created.status !== 201) throw new Error(`creating the mentor failed: ${created.status}`);
  return (created.body as { unique_id: string }).unique_id;
}

/** An engine on `server`, the key stored in the OS keychain of the test. */
export async function newEngine(
  server: Sandbox,
  dataDir = tempDir(),
  secret = server.apiKey,
): Promise<{ engine: Engine; profileId: string }> {
  const { engine, profileId } = await connect(server, { dataDir, secret });
  return { engine, profileId };
}

export async function setup(options: Partial<SandboxOptions> & { mentor?: string } = {}) {
  const server = await sandbox(options);
  const mentor = await createMentor(server, options.mentor ?? 'Calculus');
  const { engine, profileId } = await newEngine(server);
  return { server, mentor, engine, profileId };
}

/** The mentor's documents as the sandbox stores them. */
export function serverDocuments(server: Sandbox, pathway: string): ServerDocument[] {
  return server.db
    .prepare(
      'SELECT id, document_name, content_hash, training_status, custom_metadata FROM documents WHERE pathway = ? ORDER BY id',
    )
    .all(pathway) as ServerDocument[];
}

/** Asserts that no content was uploaded twice under one name. */
export function duplicatesOf(docs: ServerDocument[]): string[] {
  const seen = new Map<string, number>();
  for (const doc of docs) {
    const key = `${doc.document_name}\u0000${doc.content_hash}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.entries()].filter(([, n]) => n > 1).map(([key]) => key.replace('\u0000', ' @ '));
}

/** Writes `files` (relative path → content) under a new folder named `name`; answers the folder. */
export function tree(files: Record<string, string | Buffer>, name = 'course'): string {
  const root = join(tempDir(), name);
  mkdirSync(root, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

export async function allItems(engine: Engine, id: string) {
  const items = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await engine.invoke('jobs.items', { id, limit: 1000, offset });
    items.push(...page.items);
    if (page.items.length < 1000) return items;
  }
}

/** Some text worth training (the sandbox extracts and indexes it). */
export const text = (topic: string, lines = 3) =>
  Array.from({ length: lines }, (_, i) => `${topic}: paragraph ${i + 1} about limits, derivatives and integrals.`).join(
    '\n',
  ) + '\n';
