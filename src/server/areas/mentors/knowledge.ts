/**
 * A mentor's knowledge and tools in the sandbox: the user's custom instruction (`custom-instruction/`: GET, POST
 * makes it, PUT changes it) and assumed knowledge (`assumed-knowledge/`: GET, POST replaces it), kept per org and
 * user; the tools of the tenant (`mentor-tools/`) and of one mentor (`mentors/{mentor}/available-tools/`). Bodies
 * are checked against the spec; answers carry the spec's response fields. The router keeps callers to their own org
 * (and students to their own user_id).
 */
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import {
  assumedKnowledge,
  availableTools,
  customInstruction,
  mentorTools,
  recordSchemaOf,
  specOperation,
  type OperationRef,
} from '../../../shared/resources';
import { checkBody, checkQuery, present } from '../resources/validate';
import { canSeeMentor, findMentor } from './store';

type Row = Record<string, unknown>;

/**
 * The platform's tools (the spec's examples name web search and trained documents): the same for every tenant, as
 * `mentor-tools/` lists them without a mentor.
 */
export const SANDBOX_TOOLS: readonly Row[] = [
  ['web-search', 'Web Search', 'Search', 'Looks things up on the web.'],
  ['trained-documents', 'Trained Documents', 'Knowledge', 'Answers from the mentor’s trained documents.'],
  ['code-interpreter', 'Code Interpreter', 'Code', 'Runs Python to compute and plot.'],
  ['image-generation', 'Image Generation', 'Media', 'Draws images from a description.'],
  ['quiz-generator', 'Quiz Generator', 'Knowledge', 'Writes practice questions on a topic.'],
].map(([slug, name, category, description], index) => ({
  id: index + 1,
  name: name!,
  display_name: name!,
  slug: slug!,
  category: { id: index + 1, name: category!, description: `${category!} tools` },
  description: description!,
  logo: null,
  metadata: null,
  allow_base_agent: true,
  allow_openai_agent: true,
  allow_openai_assistant: true,
  allow_google_agent: true,
}));

function store(db: Db, kind: string) {
  return {
    read(org: string, user: string): Row | null {
      const text = db
        .prepare('SELECT data FROM resource_store WHERE org = ? AND kind = ? AND id = ?')
        .pluck()
        .get(org, kind, user) as string | undefined;
      return text ? (JSON.parse(text) as Row) : null;
    },
    write(org: string, user: string, record: Row): void {
      db.prepare(
        `INSERT INTO resource_store (org, kind, id, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (org, kind, id) DO UPDATE SET data = excluded.data`,
      ).run(org, kind, user, JSON.stringify(record));
    },
  };
}

const spec = (operation: OperationRef) => ({ spec: specOperation(operation), schema: recordSchemaOf(operation) });

export function mentorKnowledgeRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const owner = (ctx: RequestContext) => [ctx.params.org!, ctx.params.user_id!] as const;

  // ---- custom instruction -------------------------------------------------------------------------------------
  const instructions = store(db, 'custom-instruction');
  const ciGet = spec(customInstruction.operations.get);
  const ciCreate = spec(customInstruction.operations.create);
  const ciUpdate = spec(customInstruction.operations.update);
  const nextId = () =>
    ((db.prepare("SELECT COUNT(*) FROM resource_store WHERE kind = 'custom-instruction'").pluck().get() as number) ??
      0) + 1;
  router.add('GET', customInstruction.operations.get.path, (ctx) => {
    const found = instructions.read(...owner(ctx));
    if (!found) throw notFound('Custom instruction not found');
    return { status: ciGet.spec.response.status, body: present(ciGet.schema, found) };
  });
  router.add('POST', customInstruction.operations.create.path, async (ctx) => {
    const body = checkBody(ciCreate.spec, await ctx.json());
    const before = instructions.read(...owner(ctx));
    const record = { ...before, ...body, id: before?.id ?? nextId() };
    instructions.write(...owner(ctx), record);
    return { status: ciCreate.spec.response.status, body: present(ciCreate.schema, record) };
  });
  router.add('PUT', customInstruction.operations.update.path, async (ctx) => {
    const body = checkBody(ciUpdate.spec, await ctx.json());
    const before = instructions.read(...owner(ctx));
    if (!before) throw notFound('Custom instruction not found');
    const record = { ...before, ...body, id: before.id };
    instructions.write(...owner(ctx), record);
    return { status: ciUpdate.spec.response.status, body: present(ciUpdate.schema, record) };
  });

  // ---- assumed knowledge --------------------------------------------------------------------------------------
  const knowledge = store(db, 'assumed-knowledge');
  const akGet = spec(assumedKnowledge.operations.get);
  const akSave = spec(assumedKnowledge.operations.update);
  router.add('GET', assumedKnowledge.operations.get.path, (ctx) => {
    const found = knowledge.read(...owner(ctx));
    if (!found) throw notFound('Assumed knowledge not found');
    return { status: akGet.spec.response.status, body: present(akGet.schema, found) };
  });
  router.add('POST', assumedKnowledge.operations.update.path, async (ctx) => {
    const body = checkBody(akSave.spec, await ctx.json());
    const record = { levels: body.levels };
    knowledge.write(...owner(ctx), record);
    return { status: akSave.spec.response.status, body: present(akSave.schema, record) };
  });

  // ---- tools ----------------------------------------------------------------------------------------------------
  router.add('GET', mentorTools.operations.list.path, () => ({ status: 200, body: SANDBOX_TOOLS }));
  const available = spec(availableTools.operations.get);
  router.add('GET', availableTools.operations.get.path, (ctx) => {
    const query = checkQuery(available.spec, ctx.query);
    const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
    if (!row || !canSeeMentor(row, ctx.caller)) throw notFound('Mentor not found');
    const search = typeof query.search === 'string' ? query.search.toLowerCase() : '';
    const tools = SANDBOX_TOOLS.filter(
      (tool) =>
        !search || [tool.name, tool.slug, tool.description].some((v) => String(v).toLowerCase().includes(search)),
    );
    // DRF's OrderingFilter: a field name, `-` for descending; an unknown field leaves the order as it is.
    const ordering = typeof query.ordering === 'string' ? query.ordering : '';
    const field = ordering.replace(/^-/, '');
    if (field && tools[0] && field in tools[0]) {
      tools.sort((a, b) => String(a[field]).localeCompare(String(b[field]), undefined, { numeric: true }));
      if (ordering.startsWith('-')) tools.reverse();
    }
    return { status: available.spec.response.status, body: tools };
  });
}

/**
 * The MCP servers `org` may link to a mentor (its own, and those featured by the platform for every tenant), as the
 * MCPServer objects the settings' PUT answers, by id.
 */
export function linkableMcpServers(db: Db, org: string): Map<number, Row> {
  const rows = db.prepare("SELECT org, data FROM resource_store WHERE kind = 'mcp-servers' ORDER BY rowid").all() as {
    org: string;
    data: string;
  }[];
  const servers = new Map<number, Row>();
  for (const row of rows) {
    const server = JSON.parse(row.data) as Row;
    if (row.org === org || server.is_featured === true) servers.set(Number(server.id), server);
  }
  return servers;
}
