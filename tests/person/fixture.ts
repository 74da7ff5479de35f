/** A learner with data in every place a data request reads: chat history, memory, profile and edX memory. */
import { expect } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call } from '../helpers/sandbox';

export interface Seeded {
  username: string;
  userId: number;
  email: string;
  mentor: string;
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString();

/** A mentor of the tenant (memory history is read per mentor). */
export async function mentorOf(server: Sandbox, name = 'Privacy Mentor'): Promise<string> {
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return String((made.body as { unique_id: string }).unique_id);
}

/**
 * `username` with `conversations` conversations of `messages` messages each (the first one rated, the first
 * message a would-be formula), two memory entries, a profile memory entry and an edX memory record.
 */
export async function seedPerson(
  server: Sandbox,
  username: string,
  mentor: string,
  options: { conversations?: number; messages?: number } = {},
): Promise<Seeded> {
  const { conversations = 3, messages = 4 } = options;
  const { db, org } = server;
  const email = `${username}@example.org`;
  const userId = Number(
    db
      .prepare(
        `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
         VALUES (?, ?, 'Pat', 'Doe', ?, 'student', ?)`,
      )
      .run(username, email, org, at(0)).lastInsertRowid,
  );
  const session = db.prepare(
    `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, user_id, username, email, started_at, ended_at,
       rating, model, provider, message_count, user_message_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'gpt-4o', 'openai', ?, ?)`,
  );
  const message = db.prepare('INSERT INTO chat_messages (session_pk, role, content, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let c = 0; c < conversations; c++) {
      const id = `${String(userId).padStart(8, '0')}-0000-4000-8000-${String(c).padStart(12, '0')}`;
      const pk = session.run(
        id,
        org,
        mentor,
        userId,
        username,
        email,
        at(c),
        at(c + 1),
        c === 0 ? -1 : null,
        messages,
        messages / 2,
      ).lastInsertRowid;
      for (let m = 0; m < messages; m++) {
        const content = c === 0 && m === 0 ? '=HYPERLINK("http://evil.example","x")' : `${username} says ${c}.${m}`;
        message.run(pk, m % 2 ? 'assistant' : 'user', content, at(c));
      }
    }
  })();
  remember(db, org, { username, mentor, category: 'knowledge_gaps', value: `${username} gap`, at: at(1) });
  remember(db, org, { username, mentor, category: 'lessons_learned', value: `${username} lesson`, at: at(2) });
  const profile = await call(server, 'POST', `/api/ai-mentor/orgs/${org}/users/${username}/ai-user-profile-memory/`, {
    json: { tag: 'hobby', detail: `${username} climbs` },
  });
  expect(profile.status, JSON.stringify(profile.body)).toBeLessThan(300);
  const edxId = 9000 + userId;
  db.prepare("INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'edx-memory', ?, ?)").run(
    org,
    String(edxId),
    JSON.stringify({
      id: edxId,
      username,
      student: userId,
      course_id: 'course-v1:main+101+01',
      data: { grade: 0.9 },
      date_created: at(3),
      last_modified: at(3),
    }),
  );
  return { username, userId, email, mentor };
}

/** What each endpoint that served the person answers now (admin's key). */
export async function personData(server: Sandbox, username: string) {
  const org = server.org;
  const mentorBase = `/api/ai-mentor/orgs/${org}/users/${username}`;
  const chats = await call(
    server,
    'GET',
    `/api/ai-analytics/orgs/${org}/users/${server.user}/chat-history/?filter_user_id=${username}&page_size=100`,
  );
  const memories = await call(server, 'GET', `${mentorBase}/memories/`);
  const profile = await call(server, 'GET', `${mentorBase}/ai-user-profile-memory/`);
  const edx = await call(server, 'GET', `${mentorBase}/edx-memory/`);
  const users = await call(server, 'GET', `/api/core/users/search/?page_size=1000`);
  return { chats, memories, profile, edx, users };
}
