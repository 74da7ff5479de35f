/**
 * A learner's chat sessions for an admin (issue 18): one session's messages with its pinned state, pinning and
 * unpinning it, and exporting it as a file (the platform's export task, read back when ready, written as CSV by a
 * job). `learner` is the username the platform's `{user_id}` takes for these paths.
 */
import { z } from 'zod';
import { call } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };
const Learner = z.string().trim().min(1).max(320);
const SessionId = z.string().trim().uuid('A session id is a UUID');

export const SessionMessage = z.object({
  role: z.enum(['learner', 'mentor']),
  content: z.string(),
  timestamp: z.string(),
});

export const SessionView = z.object({
  session: z.string(),
  learner: z.string(),
  title: z.string(),
  mentorUniqueId: z.string().nullable(),
  messages: z.array(SessionMessage),
  pinned: z.boolean(),
});
export type SessionView = z.infer<typeof SessionView>;

export const sessionCalls = {
  'sessions.get': call(
    z.object({ ...Tenant, learner: Learner, session: SessionId }).strict(),
    SessionView,
    "One of a learner's chat sessions: its messages and whether the learner pinned it",
  ),
  'sessions.pin': call(
    z.object({ ...Tenant, learner: Learner, session: SessionId, pinned: z.boolean() }).strict(),
    z.object({ pinned: z.boolean() }),
    "Pin or unpin a learner's session",
  ),
  'sessions.export': call(
    /** `path`: where the CSV goes (default: the export folder, named for the learner and the session). */
    z
      .object({ ...Tenant, learner: Learner, session: SessionId, path: z.string().min(1).max(4096).optional() })
      .strict(),
    z.object({ jobId: z.string(), path: z.string() }),
    'Export a session as a CSV file: a job that asks the platform for the export and saves it when ready',
    { localPaths: { path: 'write' } },
  ),
} as const;
