/**
 * `mentors/{mentor}/create-call-credentials/` (POST): the parameters a client joins a mentor's audio call room with
 * (IBL Call Pro: server URL, room, participant and a signed participant token). The body is the spec's
 * CallAuthenticationRequest (`session_id` and `pathway` required, `enable_video`). The sandbox's rules: an unknown
 * mentor, or a session of another mentor, is 'No mentor or session found' (404); a mentor with no call configuration
 * answers the spec's 400 ("improperly configured IBL Call Pro credentials"), since the sandbox has no Call Pro
 * credentials of its own to be missing. A new session id starts a new call session.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AreaDeps } from '../../area';
import { badRequest, fieldErrors, notFound } from '../../http/errors';
import type { Router } from '../../http/router';
import { findMentor } from './store';

const PATH = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/create-call-credentials/';
const NOT_FOUND = 'No mentor or session found';
const NOT_CONFIGURED = 'Invalid request parameters or improperly configured IBL Call Pro credentials';

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function callCredentialRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  // The sandbox's signing key: new every start, never stored.
  const signingKey = randomBytes(32);

  router.post(PATH, async (ctx) => {
    const org = ctx.params.org!;
    const body = (await ctx.json()) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw fieldErrors({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    }
    const errors: Record<string, string[]> = {};
    for (const name of ['session_id', 'pathway'] as const) {
      const value = body[name];
      if (value === undefined || value === null) errors[name] = ['This field is required.'];
      else if (typeof value !== 'string') errors[name] = ['Not a valid string.'];
      else if (!value.trim()) errors[name] = ['This field may not be blank.'];
    }
    if (body.enable_video !== undefined && typeof body.enable_video !== 'boolean')
      errors.enable_video = ['Must be a valid boolean.'];
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);

    const mentor = findMentor(db, org, ctx.params.mentor!);
    if (!mentor) throw notFound(NOT_FOUND);
    const session = db
      .prepare('SELECT mentor_unique_id FROM chat_sessions WHERE org = ? AND session_id = ?')
      .pluck()
      .get(org, String(body.session_id).toLowerCase()) as string | undefined;
    if (session !== undefined && session !== mentor.unique_id) throw notFound(NOT_FOUND);
    const configured = (
      db
        .prepare("SELECT data FROM resource_store WHERE org = ? AND kind = 'call-configurations'")
        .pluck()
        .all(org) as string[]
    ).some((text) => (JSON.parse(text) as { mentor?: string }).mentor === mentor.unique_id);
    if (!configured) throw badRequest(NOT_CONFIGURED);

    const participant = ctx.params.user_id!;
    const room = `mentor-audio-call-${mentor.unique_id}|${org}`;
    const now = Math.floor(deps.now().getTime() / 1000);
    const claims = {
      sub: participant,
      video: { room, roomJoin: true, canPublishData: true, canPublishVideo: body.enable_video === true },
      session: body.session_id,
      iat: now,
      exp: now + 3600,
    };
    const unsigned = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
    const signature = createHmac('sha256', signingKey).update(unsigned).digest('base64url');
    return {
      status: 200,
      body: {
        ws_url: `ws://${ctx.url.host}/call-pro/`,
        room_name: room,
        participant_name: participant,
        participant_token: `${unsigned}.${signature}`,
      },
    };
  });
}
