/**
 * A learner's data in the sandbox beyond the areas that keep it: their memories across mentors (`memories/`, the
 * spec's PaginatedUserMemoryList, one UserMemory per mentor and category with its entries) and clearing their chat
 * history (`clear-chathistory`, 204). `{user_id}` is the learner: a tenant admin may name any learner of the org, a
 * learner only themself (the router's rule for these paths).
 */
import type { Area, AreaDeps } from '../../area';
import { notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { learnerMemories } from '../mentors/user-memories';

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}';

function learnerOf(deps: AreaDeps, ctx: RequestContext): { username: string; email: string | null } {
  const found = deps.db
    .prepare('SELECT username, email FROM users WHERE org = ? AND username = ?')
    .get(ctx.params.org!, ctx.params.user_id!) as { username: string; email: string | null } | undefined;
  if (!found) throw notFound('User not found.');
  return found;
}

function personRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;

  router.get(`${BASE}/memories/`, (ctx) => {
    const learner = learnerOf(deps, ctx);
    const org = ctx.params.org!;
    const mentor = ctx.query.get('mentor');
    const category = ctx.query.get('category');
    // The same UserMemory records as filtered-memories/ and memory/{id}/ serve, emptied ones included.
    const memories = learnerMemories(db, org, learner.username).filter(
      (memory) => (!mentor || memory.mentor === mentor) && (!category || memory.category === category),
    );
    const window = pageWindow(ctx.query, 20, 1000);
    const page = memories.slice(window.offset, window.offset + window.pageSize);
    return { status: 200, body: drfPage(ctx.url, window, memories.length, page) };
  });

  // "Endpoint to clear a user's chat history": every conversation of the learner on this tenant, with its messages.
  router.delete(`${BASE}/clear-chathistory`, (ctx) => {
    const learner = learnerOf(deps, ctx);
    const org = ctx.params.org!;
    db.transaction(() => {
      const sessions = 'SELECT id FROM chat_sessions WHERE org = ? AND username = ?';
      db.prepare(`DELETE FROM chat_session_topics WHERE session_pk IN (${sessions})`).run(org, learner.username);
      db.prepare(`DELETE FROM chat_messages WHERE session_pk IN (${sessions})`).run(org, learner.username);
      db.prepare('DELETE FROM chat_sessions WHERE org = ? AND username = ?').run(org, learner.username);
    })();
    return { status: 204 };
  });
}

export const personArea: Area = {
  name: 'person',
  schema: '',
  routes: personRoutes,
};
