/**
 * A person's skills and roles, desired and reported (`/api/catalog/skills/{desired,reported}/`,
 * `roles/{desired,reported}/`), and their skill points (`milestones/skill_points/user/`). An administrator reads
 * anyone of the tenant; a learner their own. The skill points answer is an open object in the spec: the sandbox
 * answers `{user_id, username, total_points, skills: [{skill_id, name, slug, points}]}`.
 */
import type { AreaDeps } from '../../area';
import { badRequest, forbidden, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import type { Rng } from '../../rng';
import { MAIN_ORG } from '../core';
import { personOf } from '../catalogue/store';

export const skillsSchema = `
CREATE TABLE IF NOT EXISTS learning_skills (
  id INTEGER PRIMARY KEY, org TEXT NOT NULL, name TEXT NOT NULL, slug TEXT NOT NULL, UNIQUE (org, slug)
);
CREATE TABLE IF NOT EXISTS learning_roles (
  id INTEGER PRIMARY KEY, org TEXT NOT NULL, name TEXT NOT NULL, slug TEXT NOT NULL, UNIQUE (org, slug)
);
CREATE TABLE IF NOT EXISTS learning_person_skills (
  user_id INTEGER NOT NULL, skill_id INTEGER NOT NULL REFERENCES learning_skills(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('desired', 'reported')), PRIMARY KEY (user_id, skill_id, kind)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS learning_person_roles (
  user_id INTEGER NOT NULL, role_id INTEGER NOT NULL REFERENCES learning_roles(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('desired', 'reported')), PRIMARY KEY (user_id, role_id, kind)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS learning_skill_points (
  user_id INTEGER NOT NULL, skill_id INTEGER NOT NULL REFERENCES learning_skills(id) ON DELETE CASCADE,
  points INTEGER NOT NULL, PRIMARY KEY (user_id, skill_id)
) WITHOUT ROWID;
`;

/** The person a read names (`username` or `user_id`; the caller without either), theirs or an admin's to read. */
function personFor(deps: AreaDeps, ctx: RequestContext) {
  const username = ctx.query.get('username');
  const userId = ctx.query.get('user_id');
  if (userId !== null && !/^\d+$/.test(userId)) throw badRequest('user_id must be an integer');
  const by = username ? { username } : userId ? { user_id: userId } : { username: ctx.caller!.username };
  const person = personOf(deps.db, ctx.caller!.org, by);
  if (!person) throw notFound('User not found');
  if (ctx.caller!.role !== 'admin' && person.username !== ctx.caller!.username) throw forbidden('Permission denied');
  return person;
}

export function skillRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const skillsOf = db.prepare(
    `SELECT s.id AS skill_id, s.name, s.slug, s.org AS platform FROM learning_person_skills p
     JOIN learning_skills s ON s.id = p.skill_id WHERE p.user_id = ? AND p.kind = ? ORDER BY s.name`,
  );
  const rolesOf = db.prepare(
    `SELECT r.id, r.name, r.slug, r.org AS platform_key FROM learning_person_roles p
     JOIN learning_roles r ON r.id = p.role_id WHERE p.user_id = ? AND p.kind = ? ORDER BY r.name`,
  );
  for (const kind of ['desired', 'reported'] as const) {
    router.get(`/api/catalog/skills/${kind}/`, (ctx) => {
      const person = personFor(deps, ctx);
      return {
        status: 200,
        body: { user_id: person.id, username: person.username, skills: skillsOf.all(person.id, kind), data: null },
      };
    });
    router.get(`/api/catalog/roles/${kind}/`, (ctx) => {
      const person = personFor(deps, ctx);
      const roles = (rolesOf.all(person.id, kind) as Record<string, unknown>[]).map((role) => ({
        ...role,
        skills: [],
        data: null,
      }));
      return { status: 200, body: { user_id: person.id, username: person.username, roles, data: null } };
    });
  }
  const pointsOf = db.prepare(
    `SELECT s.id AS skill_id, s.name, s.slug, p.points FROM learning_skill_points p
     JOIN learning_skills s ON s.id = p.skill_id WHERE p.user_id = ? ORDER BY p.points DESC, s.name`,
  );
  router.get('/api/catalog/milestones/skill_points/user/', (ctx) => {
    const person = personFor(deps, ctx);
    const skills = pointsOf.all(person.id) as { points: number }[];
    return {
      status: 200,
      body: {
        user_id: person.id,
        username: person.username,
        total_points: skills.reduce((sum, s) => sum + s.points, 0),
        skills,
      },
    };
  });
}

const SKILLS = ['Python', 'Statistics', 'Data visualisation', 'Machine learning', 'Clinical care', 'Accounting'];
const ROLES = ['Data analyst', 'Data scientist', 'Nurse', 'Financial analyst'];

/** Skills and roles of the main tenant, and for its first learners what they want, report and have earned. */
export function seedSkills(deps: AreaDeps, rng: Rng): void {
  const { db } = deps;
  const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const skill = db.prepare('INSERT OR IGNORE INTO learning_skills (org, name, slug) VALUES (?, ?, ?)');
  const role = db.prepare('INSERT OR IGNORE INTO learning_roles (org, name, slug) VALUES (?, ?, ?)');
  for (const name of SKILLS) skill.run(MAIN_ORG, name, slug(name));
  for (const name of ROLES) role.run(MAIN_ORG, name, slug(name));
  const skillIds = db.prepare('SELECT id FROM learning_skills WHERE org = ?').pluck().all(MAIN_ORG) as number[];
  const roleIds = db.prepare('SELECT id FROM learning_roles WHERE org = ?').pluck().all(MAIN_ORG) as number[];
  const learners = db
    .prepare(`SELECT id FROM users WHERE org = ? AND role = 'student' AND is_active = 1 ORDER BY id LIMIT 40`)
    .pluck()
    .all(MAIN_ORG) as number[];
  const personSkill = db.prepare('INSERT OR IGNORE INTO learning_person_skills VALUES (?, ?, ?)');
  const personRole = db.prepare('INSERT OR IGNORE INTO learning_person_roles VALUES (?, ?, ?)');
  const points = db.prepare('INSERT OR IGNORE INTO learning_skill_points VALUES (?, ?, ?)');
  learners.forEach((user, index) => {
    const offset = index % skillIds.length;
    personSkill.run(user, skillIds[offset], 'desired');
    personSkill.run(user, skillIds[(offset + 1) % skillIds.length], 'desired');
    personSkill.run(user, skillIds[(offset + 2) % skillIds.length], 'reported');
    personRole.run(user, roleIds[index % roleIds.length], 'desired');
    if (index % 2 === 0) personRole.run(user, roleIds[(index + 1) % roleIds.length], 'reported');
    points.run(user, skillIds[(offset + 2) % skillIds.length], rng.int(10, 120));
    points.run(user, skillIds[(offset + 3) % skillIds.length], rng.int(5, 60));
  });
}
