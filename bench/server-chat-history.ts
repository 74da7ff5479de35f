/**
 * `server.chat_history_page_p95_ms`: server-side time of a 100-row chat-history page over the `large` data set
 * (1,000,000 chat messages), p95 of 200 pages across filters (none, mentor, sentiment, learner, date range, topics
 * and combinations) at random page numbers, over real HTTP on loopback. The large data is generated once into `.bench-data/large` and reused while
 * the server's sources are unchanged; its generation time is reported as `server.large_seed_s`.
 *
 * `npx tsx bench/server-chat-history.ts` prints one JSON object per line.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Rng } from '../src/server/rng';
import { largeSandbox } from './lib/large';
import { percentile, type BenchResult } from './lib/suite';

const PAGES = 200;
const PAGE_SIZE = 100;

export async function run(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<BenchResult[]> {
  const { server, seedSeconds } = await largeSandbox(log);
  try {
    const db = server.db;
    const mentors = db
      .prepare('SELECT unique_id FROM mentors WHERE org = ? AND is_deleted = 0 ORDER BY id')
      .pluck()
      .all(server.org) as string[];
    const busiest = db
      .prepare('SELECT username FROM chat_sessions WHERE org = ? GROUP BY username ORDER BY count(*) DESC LIMIT 1')
      .pluck()
      .get(server.org) as string;
    const topics = db
      .prepare('SELECT name FROM chat_topics WHERE org = ? ORDER BY id')
      .pluck()
      .all(server.org) as string[];
    const filters = [
      '',
      `mentor=${mentors[0]}`,
      `mentor=${mentors[mentors.length - 1]}`,
      'sentiment=negative',
      'sentiment=positive',
      `filter_user_id=${busiest}`,
      'start_date=2026-08-01&end_date=2026-08-31',
      'start_date=2026-05-06',
      `topics=${encodeURIComponent(topics[0] ?? '')}`,
      `topics=${encodeURIComponent(`${topics[1]},${topics[2]}`)}`,
      `mentor=${mentors[0]}&sentiment=neutral`,
      'sentiment=negative&start_date=2026-07-01&end_date=2026-09-30',
    ];
    const base = `${server.url}/api/ai-analytics/orgs/${server.org}/users/${server.user}/chat-history/?page_size=${PAGE_SIZE}`;
    const headers = { authorization: `Api-Key ${server.apiKey}` };
    // Server-side time: the sandbox builds the whole page, then writes headers and body at once, so the response
    // headers arrive when the server is done; reading and parsing the 170 KB body is the client's time, not counted.
    const get = async (query: string, page: number) => {
      const started = performance.now();
      const res = await fetch(`${base}&page=${page}${query ? `&${query}` : ''}`, { headers });
      const ms = performance.now() - started;
      const body = (await res.json()) as { count: number; results: unknown[] };
      if (res.status !== 200)
        throw new Error(`chat-history ${query} page ${page}: ${res.status} ${JSON.stringify(body)}`);
      return { ms, count: body.count, rows: body.results.length };
    };
    // Warm-up: the first page of each filter (connection, statement compilation, the filter's cached count).
    const lastPage = new Map<string, number>();
    for (const query of filters) lastPage.set(query, Math.max(1, Math.ceil((await get(query, 1)).count / PAGE_SIZE)));
    const rng = new Rng(7);
    const times: number[] = [];
    for (let i = 0; i < PAGES; i++) {
      const query = filters[i % filters.length]!;
      const { ms, rows } = await get(query, rng.int(1, lastPage.get(query)!));
      if (rows === 0) throw new Error(`chat-history ${query}: an empty page inside the result set`);
      times.push(ms);
    }
    return [
      {
        name: 'server.chat_history_page_p95_ms',
        value: Math.round(percentile(times, 95) * 100) / 100,
        unit: 'ms',
        goal: '<= 20',
      },
      { name: 'server.large_seed_s', value: seedSeconds, unit: 's', goal: '<= 90' },
    ];
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const result of await run()) process.stdout.write(`${JSON.stringify(result)}\n`);
}
