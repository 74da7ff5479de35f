/**
 * `calls.credentials`: asks the platform for a mentor's call credentials (`create-call-credentials/`), which checks
 * that calls with the mentor work. The participant token in the answer admits its holder to the call room: it is
 * dropped here, before anything is returned, cached or logged (the platform client logs no bodies), and only whether
 * one came and its expiry are said.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { callCredentialCalls } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { ApiError, type PlatformClient } from '../platform';
import { userScope } from '../tenants';
import { drfIssues } from './explain';
import type { ResourceServices } from './handlers';

/** The spec's CallAuthenticationResponse. */
const Answer = z.object({
  ws_url: z.string(),
  room_name: z.string(),
  participant_name: z.string(),
  participant_token: z.string(),
});

/** The body fields the input names differently. */
const FIELD_OF: Record<string, string> = { session_id: 'sessionId', pathway: 'mentor', enable_video: 'enableVideo' };

/** A JWT's expiry, when the token is one; nothing else of it is read. */
function expiryOf(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000).toISOString() : null;
  } catch {
    return null;
  }
}

export function callCredentialHandlers(ctx: ResourceServices): HandlersOf<typeof callCredentialCalls> {
  return {
    'calls.credentials': async ({ profileId: given, mentor, sessionId, enableVideo }) => {
      const profileId = ctx.tenant(given);
      const client: PlatformClient = await ctx.platform(profileId);
      const { org, username } = await userScope(ctx.profiles, profileId);
      const session = sessionId ?? randomUUID();
      let data: unknown;
      try {
        ({ data } = await client.api.POST(
          '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/create-call-credentials/',
          {
            params: { path: { org, user_id: username, mentor } },
            body: {
              session_id: session,
              pathway: mentor,
              ...(enableVideo !== undefined && { enable_video: enableVideo }),
            },
          },
        ));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const issues = error.status === 400 ? drfIssues(error.body) : [];
        const said = error.detail ?? error.message;
        if (issues.length) {
          throw new EngineError(
            'validation',
            `The platform refused: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
            { issues: issues.map((i) => ({ ...i, path: FIELD_OF[i.path] ?? i.path })), status: 400 },
          );
        }
        if (error.status === 404) throw new EngineError('not_found', `Call credentials: ${said}`);
        throw new EngineError('api', `Call credentials: ${said}`, { status: error.status });
      }
      const answer = Answer.parse(data);
      return {
        mentor,
        sessionId: session,
        wsUrl: answer.ws_url,
        roomName: answer.room_name,
        participantName: answer.participant_name,
        tokenIssued: answer.participant_token.length > 0,
        tokenExpiresAt: expiryOf(answer.participant_token),
      };
    },
  };
}
