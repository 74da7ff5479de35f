import type { AreaDeps, SeedSize } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG, OTHER_ORG } from '../core';
import { activeMentors, type MentorRow } from '../mentor-store';
import {
  fill,
  GENERAL_TOPICS,
  MENTOR_TOPICS,
  MENTOR_WEIGHT,
  MODELS,
  TEXT,
  type LlmModel,
  type Sentiment,
} from './content';

const DAY_MS = 86_400_000;
/** Conversations span the 180 whole days before the seeding clock's day, and that day until the clock. */
export const CHAT_DAYS = 180;
/** A session lasts at most about this long (8 turns of a few minutes): it starts this early before the clock. */
const LONGEST_SESSION_MS = 30 * 60_000;

export function chatMessageTarget(size: Exclude<SeedSize, 'none'>): number {
  return size === 'large' ? 1_000_000 : 60_000;
}

interface Learner {
  id: number;
  username: string;
  email: string;
  /** When the learner registered: they chat only after it. */
  joined: number;
}

interface SessionPlan {
  org: string;
  start: number;
  uuid: string;
  mentor: MentorRow;
  learner: Learner;
  topics: string[];
  sentiment: Sentiment;
  rating: 1 | -1 | null;
  model: LlmModel;
  /** Messages in the session: alternating user/assistant, starting with the user. */
  messages: number;
  hasDocument: boolean;
}

/** Cumulative weights, for picking an index in O(log n). */
function cumulative(weights: number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w;
    out[i] = sum;
  });
  return out;
}

function pickIndex(rng: Rng, cum: Float64Array): number {
  const x = rng.next() * cum[cum.length - 1]!;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Turns per session (one user message and one answer each): 1 to 8, short chats most common.
const TURN_WEIGHTS = cumulative([22, 25, 18, 12, 9, 6, 4, 4]);
// Hours of the day (UTC) learners chat: quiet at night, busy afternoons and evenings.
const HOUR_WEIGHTS = cumulative([2, 1, 1, 1, 1, 1, 2, 3, 5, 7, 8, 8, 8, 9, 9, 9, 8, 8, 9, 10, 10, 8, 6, 4]);

function pickSentiment(rng: Rng, mentorName: string): Sentiment {
  // The help desk hears more complaints than the tutors.
  const negative = mentorName === 'Campus Help Desk' ? 0.3 : 0.17;
  const x = rng.next();
  if (x < negative) return 'negative';
  return x < negative + 0.36 ? 'neutral' : 'positive';
}

function pickRating(rng: Rng, sentiment: Sentiment): 1 | -1 | null {
  const x = rng.next();
  const [up, down] = sentiment === 'positive' ? [0.35, 0.03] : sentiment === 'neutral' ? [0.12, 0.06] : [0.03, 0.3];
  if (x < up) return 1;
  return x < up + down ? -1 : null;
}

function planSession(
  rng: Rng,
  org: string,
  start: number,
  mentor: MentorRow,
  learner: Learner,
  model: LlmModel,
  topicPool: readonly string[],
): SessionPlan {
  const topicCount = Math.min(topicPool.length, rng.chance(0.55) ? 1 : rng.chance(0.78) ? 2 : 3);
  const topics: string[] = [];
  while (topics.length < topicCount) {
    const topic = rng.chance(0.12) ? rng.pick(GENERAL_TOPICS) : rng.pick(topicPool);
    if (!topics.includes(topic)) topics.push(topic);
  }
  const sentiment = pickSentiment(rng, mentor.name);
  const turns = pickIndex(rng, TURN_WEIGHTS) + 1;
  // A few learners leave before the mentor answers their last question.
  const messages = turns * 2 - (rng.chance(0.04) ? 1 : 0);
  return {
    org,
    start,
    uuid: rng.uuid(),
    mentor,
    learner,
    topics,
    sentiment,
    rating: pickRating(rng, sentiment),
    model: rng.chance(0.9) ? model : rng.pick(MODELS),
    messages,
    hasDocument: rng.chance(0.3),
  };
}

interface Learners {
  main: Learner[];
  other: Learner[];
}

function loadLearners(deps: AreaDeps): Learners {
  const rows = (org: string, role: string) =>
    (
      deps.db
        .prepare('SELECT id, username, email, date_joined FROM users WHERE org = ? AND role = ? ORDER BY id')
        .all(org, role) as (Omit<Learner, 'joined'> & { date_joined: string })[]
    ).map(({ date_joined, ...learner }) => ({ ...learner, joined: Date.parse(date_joined) }));
  const main = rows(MAIN_ORG, 'student');
  // The other tenant has no students: its admin tries its mentor, enough for isolation checks (whenever it joined).
  const other = rows(OTHER_ORG, 'admin').map((admin) => ({ ...admin, joined: 0 }));
  return { main: main.length ? main : rows(MAIN_ORG, 'admin').map((a) => ({ ...a, joined: 0 })), other };
}

/** Plans every session (time, mentor, learner, topics, outcome, size) until the message budget is spent. */
function planSessions(deps: AreaDeps, size: Exclude<SeedSize, 'none'>, rng: Rng): SessionPlan[] {
  const anchor = deps.now().getTime();
  const anchorDay = Math.floor(anchor / DAY_MS) * DAY_MS;
  const firstDay = anchorDay - CHAT_DAYS * DAY_MS;
  // The sessions that have ended by the clock: today's start at least a session's length before it.
  const latestStart = anchor - LONGEST_SESSION_MS;
  // More chats recently (the platform is growing) and fewer at weekends; today only as far as the clock.
  const dayWeights = cumulative(
    Array.from({ length: CHAT_DAYS + 1 }, (_, d) => {
      const weekday = new Date(firstDay + d * DAY_MS).getUTCDay();
      const elapsed = d === CHAT_DAYS ? Math.max(0, latestStart - anchorDay) / DAY_MS : 1;
      return (0.6 + (0.8 * d) / CHAT_DAYS) * (weekday === 0 || weekday === 6 ? 0.55 : 1) * elapsed;
    }),
  );
  const hours = (Math.max(0, latestStart - anchorDay) / 3_600_000) | 0;
  const todayHours = cumulative(
    Array.from({ length: Math.max(1, hours) }, (_, h) => HOUR_WEIGHTS[h]! - (HOUR_WEIGHTS[h - 1] ?? 0)),
  );
  const randomStart = () => {
    const day = pickIndex(rng, dayWeights);
    const hour = day === CHAT_DAYS ? pickIndex(rng, todayHours) : pickIndex(rng, HOUR_WEIGHTS);
    return Math.min(latestStart, firstDay + day * DAY_MS + hour * 3_600_000 + rng.int(0, 3_599_999));
  };

  const learners = loadLearners(deps);
  const mainMentors = activeMentors(deps, MAIN_ORG);
  const otherMentors = activeMentors(deps, OTHER_ORG);
  const mentorModel = new Map<string, LlmModel>();
  for (const mentor of [...mainMentors, ...otherMentors]) mentorModel.set(mentor.unique_id, rng.pick(MODELS));
  const poolOf = (mentor: MentorRow) => MENTOR_TOPICS[mentor.name] ?? GENERAL_TOPICS;
  const mentorWeights = cumulative(mainMentors.map((m) => MENTOR_WEIGHT[m.name] ?? 1));

  let budget = chatMessageTarget(size);
  const plans: SessionPlan[] = [];
  const add = (plan: SessionPlan) => {
    plan.messages = Math.min(plan.messages, budget);
    budget -= plan.messages;
    plans.push(plan);
  };
  const otherSessions = size === 'large' ? 200 : 40;
  if (otherMentors.length && learners.other.length) {
    for (let i = 0; i < otherSessions; i++) {
      const mentor = rng.pick(otherMentors);
      add(
        planSession(
          rng,
          OTHER_ORG,
          randomStart(),
          mentor,
          rng.pick(learners.other),
          mentorModel.get(mentor.unique_id)!,
          poolOf(mentor),
        ),
      );
    }
  }
  if (mainMentors.length && learners.main.length) {
    const count = learners.main.length;
    while (budget > 0) {
      const mentor = mainMentors[pickIndex(rng, mentorWeights)]!;
      // A few learners chat a lot and many only now and then: the first learners are the most active. Only a
      // learner registered by then chats: the time is drawn first (it keeps the days' shape), then a learner.
      const start = randomStart();
      let learner: Learner | undefined;
      for (let attempt = 0; attempt < 20 && !learner; attempt++) {
        const candidate = learners.main[Math.floor(count * rng.next() ** 1.8)]!;
        if (candidate.joined <= start) learner = candidate;
      }
      if (!learner) continue;
      add(planSession(rng, MAIN_ORG, start, mentor, learner, mentorModel.get(mentor.unique_id)!, poolOf(mentor)));
    }
  }
  // Stored in time order, so ids follow time and index inserts append.
  return plans.sort((a, b) => a.start - b.start);
}

const iso = (ms: number) => new Date(ms).toISOString();
const tokensOf = (text: string) => Math.ceil(text.length / 4);
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Generates the chat sessions, their messages and topic links: one pass of prepared inserts. */
export function seedChats(deps: AreaDeps, size: Exclude<SeedSize, 'none'>, rng: Rng): void {
  const { db } = deps;
  const plans = planSessions(deps, size, rng);

  const insertTopic = db.prepare(
    'INSERT INTO chat_topics (org, name) VALUES (?, ?) ON CONFLICT (org, name) DO NOTHING',
  );
  const topicId = db.prepare('SELECT id FROM chat_topics WHERE org = ? AND name = ?').pluck();
  const topicIds = new Map<string, number>();
  const topicKey = (org: string, name: string) => `${org}\u0000${name}`;
  const idOfTopic = (org: string, name: string): number => {
    const key = topicKey(org, name);
    let id = topicIds.get(key);
    if (id === undefined) {
      insertTopic.run(org, name);
      id = topicId.get(org, name) as number;
      topicIds.set(key, id);
    }
    return id;
  };

  const insertSession = db.prepare(
    `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, user_id, username, email, started_at, ended_at, topics,
       sentiment, rating, model, provider, message_count, user_message_count, tokens, cost, first_message, has_document)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    'INSERT INTO chat_messages (session_pk, role, content, created_at, tokens, cost, model) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertLink = db.prepare(
    `INSERT INTO chat_session_topics (topic_id, started_at, session_pk, mentor_unique_id, sentiment, rating, message_count)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // Messages of one session, reused between sessions to avoid garbage.
  const roles: string[] = [];
  const contents: string[] = [];
  const times: number[] = [];
  const tokens: number[] = [];
  const costs: number[] = [];

  for (const plan of plans) {
    roles.length = contents.length = times.length = tokens.length = costs.length = 0;
    let t = plan.start;
    let context = 180; // system prompt and mentor instructions
    let totalTokens = 0;
    let totalCost = 0;
    let userMessages = 0;
    for (let i = 0; i < plan.messages; i++) {
      const topic = plan.topics[Math.min(plan.topics.length - 1, i >> 2)]!;
      if (i % 2 === 0) {
        const text = i === 0 ? fill(rng.pick(TEXT.QUESTIONS), topic) : rng.pick(TEXT.FOLLOW_UPS);
        const n = tokensOf(text);
        roles.push('user');
        contents.push(text);
        times.push(t);
        tokens.push(n);
        costs.push(0);
        context += n;
        totalTokens += n;
        userMessages++;
        t += rng.int(3_000, 25_000);
      } else {
        const last = i === plan.messages - 1;
        const text = last && i > 1 ? rng.pick(TEXT.CLOSINGS) : fill(rng.pick(TEXT.ANSWERS), topic);
        const completion = rng.int(60, 420);
        const cost = round6((context * plan.model.promptPer1k + completion * plan.model.completionPer1k) / 1000);
        roles.push('assistant');
        contents.push(text);
        times.push(t);
        tokens.push(context + completion);
        costs.push(cost);
        totalTokens += context + completion;
        totalCost += cost;
        context += completion;
        t += rng.int(20_000, 180_000);
      }
    }
    const startedAt = iso(plan.start);
    const endedAt = iso(times.length ? times[times.length - 1]! : plan.start);
    const topicsJson = JSON.stringify(plan.topics.map((name) => ({ name })));
    const sessionPk = insertSession.run(
      plan.uuid,
      plan.org,
      plan.mentor.unique_id,
      plan.learner.id,
      plan.learner.username,
      plan.learner.email,
      startedAt,
      endedAt,
      topicsJson,
      plan.sentiment,
      plan.rating,
      plan.model.name,
      plan.model.provider,
      plan.messages,
      userMessages,
      totalTokens,
      round6(totalCost),
      contents[0] ?? '',
      plan.hasDocument ? 1 : 0,
    ).lastInsertRowid;
    for (let i = 0; i < roles.length; i++) {
      const assistant = roles[i] === 'assistant';
      insertMessage.run(
        sessionPk,
        roles[i],
        contents[i],
        iso(times[i]!),
        tokens[i],
        costs[i],
        assistant ? plan.model.name : null,
      );
    }
    for (const name of plan.topics) {
      insertLink.run(
        idOfTopic(plan.org, name),
        startedAt,
        sessionPk,
        plan.mentor.unique_id,
        plan.sentiment,
        plan.rating,
        plan.messages,
      );
    }
  }
}
