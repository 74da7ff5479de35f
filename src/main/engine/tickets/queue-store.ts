import { addDays, localTimeZone, startOfLocalDay, type TicketFilter, type TicketSort } from '../../../shared/contract';
import type { Db } from '../store';
import { facet, type TicketView } from './cache';

/** How a list is read: the view's filter (plus any ad hoc one), the order, the search words, the window. */
export interface ListQuery {
  profileId: string;
  /** The tenant connection's username: "Mine" means claimed by this name. */
  me: string;
  /** Activity up to here counts as read (see ticket_sync.read_baseline). */
  baseline: string;
  filter: TicketFilter;
  sort: TicketSort;
  search?: string | undefined;
  offset: number;
  limit: number;
}

const ORDER: Record<TicketSort, string> = {
  newest: 't.created_at DESC, t.id DESC',
  oldest: 't.created_at ASC, t.id ASC',
  activity: 't.activity_at DESC, t.id DESC',
  waiting: 't.waiting_since ASC, t.id ASC',
};

export const UNREAD_SQL = `(coalesce(l.unread_forced, 0) = 1 OR t.activity_at > coalesce(l.read_at, @baseline))`;

/**
 * Search words as FTS5 phrases: every word quoted (so no query syntax can be injected and no input is an error),
 * the last one a prefix so results follow typing. Words with no letters or digits are left out.
 */
export function ftsTerms(search: string): string[] {
  const words = search
    .normalize('NFKC')
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}@._'-]/gu, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 8);
  return words.map((word, index) => {
    const phrase = `"${word.replace(/"/g, '""')}"`;
    return index === words.length - 1 && word.length >= 2 ? `${phrase}*` : phrase;
  });
}

/**
 * Where a calendar day starts in the zone, as a UTC timestamp cut to the second so it compares as text with the
 * API's ISO timestamps (a ticket created at that very second, with or without milliseconds, sorts after it).
 * The list shows times in the admin's zone, so a ticket created at 01:00 on 2 November in Auckland is a
 * 2 November ticket, although in UTC it was created on 1 November.
 */
function dayStart(date: string, timeZone: string): string {
  return new Date(startOfLocalDay(date, timeZone)).toISOString().slice(0, 19);
}

/**
 * Up to this many search hits, the search index leads (each hit is looked up and sorted); beyond, the hits are
 * gathered once and the view's own sorted index leads, stopping once the page is full.
 */
const INDEX_LEADS_UP_TO = 300;
const TEXT_COLUMNS = '{subject description requester thread}';

interface Built {
  where: string[];
  params: Record<string, unknown>;
  needsLocal: boolean;
  /** The full-text expression over the text columns, when searching. */
  match: string | null;
  /** The same narrowed by the tenant/status/mentor tokens: counts from the index alone when nothing else filters. */
  facetMatch: string | null;
  facetOnly: boolean;
}

function build(q: Omit<ListQuery, 'offset' | 'limit' | 'sort'>): Built {
  // "Created from/to" are days where the admin sits: the engine runs on their machine (browser mode only on 127.0.0.1).
  const timeZone = localTimeZone();
  const where = ['t.profile_id = @profile'];
  const params: Record<string, unknown> = { profile: q.profileId, baseline: q.baseline };
  let needsLocal = false;
  let facetOnly = true;
  const f = q.filter;
  const facets = [`facets : ${facet('p', q.profileId)}`];
  if (f.statuses?.length && f.statuses.length < 3) {
    where.push(`t.status IN (${f.statuses.map((_, i) => `@status${i}`).join(', ')})`);
    f.statuses.forEach((s, i) => (params[`status${i}`] = s));
    facets.push(`(${f.statuses.map((s) => `facets : ${facet('s', s)}`).join(' OR ')})`);
  }
  if (f.mentorId) {
    where.push('t.mentor_id = @mentor');
    params.mentor = f.mentorId;
    facets.push(`facets : ${facet('m', f.mentorId)}`);
  }
  if (f.requester) {
    where.push(
      `(t.username LIKE @requester ESCAPE '\\' OR t.email LIKE @requester ESCAPE '\\' OR t.full_name LIKE @requester ESCAPE '\\')`,
    );
    params.requester = `%${f.requester.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    facetOnly = false;
  }
  if (f.createdFrom) {
    where.push('t.created_at >= @createdFrom');
    params.createdFrom = dayStart(f.createdFrom, timeZone);
    facetOnly = false;
  }
  if (f.createdTo) {
    where.push('t.created_at < @createdTo');
    // Inclusive: up to the start of the next day.
    params.createdTo = dayStart(addDays(f.createdTo, 1), timeZone);
    facetOnly = false;
  }
  if (f.mine) {
    where.push('l.assignee = @me');
    params.me = q.me;
    needsLocal = true;
  }
  if (f.priority) {
    where.push('l.priority = @priority');
    params.priority = f.priority;
    needsLocal = true;
  }
  if (f.tag) {
    where.push('EXISTS (SELECT 1 FROM json_each(l.tags) WHERE value = @tag)');
    params.tag = f.tag;
    needsLocal = true;
  }
  if (f.unreadOnly) {
    where.push(UNREAD_SQL);
    needsLocal = true;
  }
  // Every word must occur in the ticket: subject, description, requester or anywhere in its thread.
  const terms = [...ftsTerms(f.text ?? ''), ...ftsTerms(q.search ?? '')];
  const match = terms.length ? `${TEXT_COLUMNS} : (${terms.join(' ')})` : null;
  return {
    where,
    params,
    needsLocal,
    match,
    facetMatch: match ? [match, ...facets].join(' AND ') : null,
    facetOnly: facetOnly && !needsLocal,
  };
}

const LOCAL_JOIN = 'LEFT JOIN ticket_local l ON l.profile_id = t.profile_id AND l.ticket_id = t.id';

const countHits = (db: Db, match: string, upTo: number) =>
  db
    .prepare('SELECT count(*) FROM (SELECT 1 FROM ticket_fts WHERE ticket_fts MATCH ? LIMIT ?)')
    .pluck()
    .get(match, upTo) as number;

/** How a search joins the list: led by the index (few hits) or checked per row of the view (many). */
function searchPlan(db: Db, b: Built): { from: string; where: string[]; params: Record<string, unknown> } {
  if (!b.match || !b.facetMatch) return { from: 'ticket_cache t', where: b.where, params: b.params };
  const params = { ...b.params, match: b.facetMatch };
  if (countHits(db, b.facetMatch, INDEX_LEADS_UP_TO + 1) <= INDEX_LEADS_UP_TO) {
    return {
      from: 'ticket_fts CROSS JOIN ticket_cache t ON t.rid = ticket_fts.rowid',
      where: [...b.where, 'ticket_fts MATCH @match'],
      params,
    };
  }
  return {
    from: 'ticket_cache t',
    where: [...b.where, 't.rid IN (SELECT rowid FROM ticket_fts WHERE ticket_fts MATCH @match)'],
    params,
  };
}

function count(db: Db, b: Built): number {
  // The tenant, status and mentor are in the index: the count needs no table at all.
  if (b.facetMatch && b.facetOnly) return countHits(db, b.facetMatch, Number.MAX_SAFE_INTEGER);
  const plan = searchPlan(db, b);
  return db
    .prepare(`SELECT count(*) FROM ${plan.from} ${b.needsLocal ? LOCAL_JOIN : ''} WHERE ${plan.where.join(' AND ')}`)
    .pluck()
    .get(plan.params) as number;
}

function listTickets(db: Db, q: ListQuery): { total: number; rows: TicketView[] } {
  const b = build(q);
  const total = count(db, b);
  const plan = searchPlan(db, b);
  const rows = db
    .prepare(
      `SELECT t.*, l.assignee, l.priority, l.tags, l.read_at, l.draft, mn.name AS mentor_name, ${UNREAD_SQL} AS unread
       FROM ${plan.from} ${LOCAL_JOIN}
       LEFT JOIN ticket_mentors mn ON mn.profile_id = t.profile_id AND mn.unique_id = t.mentor_id
       WHERE ${plan.where.join(' AND ')} ORDER BY ${ORDER[q.sort]} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...plan.params, limit: q.limit, offset: q.offset }) as TicketView[];
  return { total, rows };
}

function countTickets(db: Db, q: Omit<ListQuery, 'offset' | 'limit' | 'sort'>): { count: number; unread: number } {
  const b = build(q);
  const plan = searchPlan(db, b);
  return db
    .prepare(
      `SELECT count(*) AS count, coalesce(sum(${UNREAD_SQL}), 0) AS unread FROM ${plan.from} ${LOCAL_JOIN}
       WHERE ${plan.where.join(' AND ')}`,
    )
    .get(plan.params) as { count: number; unread: number };
}

/**
 * Counts for the built-in views in a few index-only passes: per status, per mentor (unresolved), and the unread
 * ones (activity after the read baseline and after the ticket's own read mark, or marked unread by hand).
 */
function viewCounts(db: Db, profileId: string, baseline: string, me: string) {
  const byStatus = new Map(
    db
      .prepare('SELECT status, count(*) FROM ticket_cache WHERE profile_id = ? GROUP BY status')
      .raw()
      .all(profileId) as [string, number][],
  );
  const unreadByStatus = new Map<string, number>();
  const add = (status: string, n: number) => unreadByStatus.set(status, (unreadByStatus.get(status) ?? 0) + n);
  for (const [status, n] of db
    .prepare(
      `SELECT t.status, count(*) FROM ticket_cache t ${LOCAL_JOIN}
       WHERE t.profile_id = @profile AND t.activity_at > @baseline
         AND (l.read_at IS NULL OR t.activity_at > l.read_at) GROUP BY t.status`,
    )
    .raw()
    .all({ profile: profileId, baseline }) as [string, number][])
    add(status, n);
  for (const [status, n] of db
    .prepare(
      `SELECT t.status, count(*) FROM ticket_local l
       JOIN ticket_cache t ON t.profile_id = l.profile_id AND t.id = l.ticket_id
       WHERE l.profile_id = @profile AND l.unread_forced = 1
         AND NOT (t.activity_at > @baseline AND (l.read_at IS NULL OR t.activity_at > l.read_at))
       GROUP BY t.status`,
    )
    .raw()
    .all({ profile: profileId, baseline }) as [string, number][])
    add(status, n);
  const byMentor = db
    .prepare(
      `SELECT t.mentor_id, mn.name, count(*) FROM ticket_cache t
       LEFT JOIN ticket_mentors mn ON mn.profile_id = t.profile_id AND mn.unique_id = t.mentor_id
       WHERE t.profile_id = ? AND t.status IN ('open', 'in_progress') GROUP BY t.mentor_id ORDER BY count(*) DESC`,
    )
    .raw()
    .all(profileId) as [string, string | null, number][];
  const mine = countTickets(db, {
    profileId,
    me,
    baseline,
    filter: { mine: true, statuses: ['open', 'in_progress'] },
  });
  return { byStatus, unreadByStatus, byMentor, mine };
}

/** The ticket queue as the screens read it: pages, counts and the views' badges, from the tenant's cached tickets. */
export class TicketQueue {
  constructor(private readonly db: Db) {}

  list(q: ListQuery): { total: number; rows: TicketView[] } {
    return listTickets(this.db, q);
  }

  count(q: Omit<ListQuery, 'offset' | 'limit' | 'sort'>): { count: number; unread: number } {
    return countTickets(this.db, q);
  }

  viewCounts(profileId: string, baseline: string, me: string): ReturnType<typeof viewCounts> {
    return viewCounts(this.db, profileId, baseline, me);
  }
}
