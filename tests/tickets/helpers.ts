import { afterAll } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import type { EventName, EventPayload } from '../../src/shared/contract';
import type { Sandbox, SandboxOptions } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir, uniqueService } from '../helpers/temp';

const engines: Engine[] = [];
afterAll(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

export interface TicketRig {
  server: Sandbox;
  engine: Engine;
  profileId: string;
  dataDir: string;
  events: { name: EventName; payload: unknown }[];
  /** Resolves with the first event of that name matching `test`. */
  next<E extends EventName>(
    name: E,
    test?: (payload: EventPayload<E>) => boolean,
    timeoutMs?: number,
  ): Promise<EventPayload<E>>;
}

/**
 * A sandbox platform and an engine with a profile pointing at it. The key comes from MENTOR_ADMIN_API_KEY, so these
 * tests need no keychain.
 */
export async function rig(options: Partial<SandboxOptions> & { key?: 'admin' | 'student' } = {}): Promise<TicketRig> {
  const { key, ...sandboxOptions } = options;
  const server = await sandbox({ seed: 'demo', ...sandboxOptions });
  const dataDir = tempDir('tickets-engine-');
  const engine = await createEngine({
    dataDir,
    shell: 'test',
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_API_KEY: key === 'student' ? server.studentKey : server.apiKey },
  });
  engines.push(engine);
  const profile = await engine.invoke('profiles.add', {
    name: 'Sandbox',
    baseUrl: server.url,
    org: server.org,
    username: key === 'student' ? server.studentUser : server.user,
    makeActive: true,
  });
  const events: TicketRig['events'] = [];
  const waiters: (() => void)[] = [];
  engine.onEvent((name, payload) => {
    events.push({ name, payload });
    for (const w of [...waiters]) w();
  });
  const next: TicketRig['next'] = (name, test, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const from = events.length;
      const check = () => {
        for (const e of events.slice(from)) {
          if (e.name === name && (!test || test(e.payload as never))) {
            waiters.splice(waiters.indexOf(check), 1);
            clearTimeout(timer);
            resolve(e.payload as never);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(check), 1);
        reject(new Error(`No ${name} event within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.push(check);
    });
  return { server, engine, profileId: profile.id, dataDir, events, next };
}

/** The sandbox's own view of a ticket (the truth the app must match). */
export function serverTicket(server: Sandbox, id: number) {
  return server.db.prepare('SELECT * FROM support_tickets WHERE id = ?').get(id) as
    { id: number; status: string; subject: string; resolved_at: string | null; updated_at: string } | undefined;
}

export function serverMessages(server: Sandbox, ticket: number) {
  return server.db
    .prepare('SELECT * FROM support_ticket_messages WHERE ticket_id = ? ORDER BY timestamp, id')
    .all(ticket) as { id: number; sender: number | null; message: string; timestamp: string }[];
}
