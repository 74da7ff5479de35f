/**
 * Call credentials (issue 16, "Voice and calls"): the spec's only call-credentials path,
 * `mentors/{mentor}/create-call-credentials/`, issues the parameters a client joins a mentor's audio call with. The
 * admin uses it to check that calls with a mentor work; the participant token it answers is a secret (it lets its
 * holder into the call room), so it never leaves the engine: the answer says only that one was issued, and until when.
 */
import { z } from 'zod';
import { call } from './kit';

export const CallCredentialCheck = z.object({
  /** The mentor's unique id (the spec's `pathway`). */
  mentor: z.string(),
  sessionId: z.string(),
  wsUrl: z.string(),
  roomName: z.string(),
  participantName: z.string(),
  /** A participant token came with the answer; the token itself is never shown, kept or logged. */
  tokenIssued: z.boolean(),
  /** When the token stops being valid, where it says so (a JWT's `exp`), else null. */
  tokenExpiresAt: z.string().nullable(),
});
export type CallCredentialCheck = z.infer<typeof CallCredentialCheck>;

export const callCredentialCalls = {
  'calls.credentials': call(
    z
      .object({
        profileId: z.string().min(1).optional(),
        /** The mentor's unique id: the path's `{mentor}` and the body's `pathway`. */
        mentor: z.string().trim().min(1).max(300),
        /** The chat session the call belongs to; a new one when not given. */
        sessionId: z.string().trim().min(1).max(300).optional(),
        enableVideo: z.boolean().optional(),
      })
      .strict(),
    CallCredentialCheck,
    "Ask the platform for a mentor's call credentials (checks calls work); the participant token never leaves the engine",
  ),
} as const;
