import type { AreaDeps } from '../../area';
import type { Rng } from '../../rng';
import { MAIN_ORG } from '../core';
import { activeMentors } from '../mentor-store';
import { createAudience, createCategory, setMentorCategories } from './taxonomy';

/** Which demo category each demo mentor belongs to, and the level recorded in its metadata. */
const DEMO_TAXONOMY: Record<string, { category: string; level: string }> = {
  'Calculus Coach': { category: 'STEM', level: 'undergraduate' },
  'Academic Writing Tutor': { category: 'Writing & Languages', level: 'undergraduate' },
  'Intro to Python': { category: 'STEM', level: 'introductory' },
  'Organic Chemistry Helper': { category: 'STEM', level: 'undergraduate' },
  'Career Advisor': { category: 'Careers & Student Support', level: 'all' },
  'Statistics Buddy': { category: 'STEM', level: 'graduate' },
  'Financial Accounting': { category: 'Business', level: 'undergraduate' },
  'Anatomy Review': { category: 'Health Sciences', level: 'undergraduate' },
  'Spanish Conversation': { category: 'Writing & Languages', level: 'introductory' },
  'Research Methods': { category: 'STEM', level: 'graduate' },
  'Study Skills': { category: 'Careers & Student Support', level: 'all' },
  'Campus Help Desk': { category: 'Careers & Student Support', level: 'all' },
};

/** Demo audiences, categories, category links, a few featured mentors and metadata to filter on. */
export function seedMentorTaxonomy(deps: AreaDeps, rng: Rng): void {
  const { db } = deps;
  const now = deps.now().toISOString();
  const undergrads = createAudience(db, MAIN_ORG, 'Undergraduates', 'Students in a bachelor programme', now).id;
  const graduates = createAudience(db, MAIN_ORG, 'Graduate students', 'Masters and doctoral students', now).id;
  const staff = createAudience(db, MAIN_ORG, 'Staff', 'Faculty and support staff', now).id;
  const categoryIds = new Map<string, number>();
  const categories: [string, string, number[]][] = [
    ['STEM', 'Science, technology, engineering and mathematics', [undergrads, graduates]],
    ['Writing & Languages', 'Writing, rhetoric and modern languages', [undergrads, graduates]],
    ['Business', 'Accounting, finance and management', [undergrads]],
    ['Health Sciences', 'Medicine, nursing and life sciences', [undergrads, graduates]],
    ['Careers & Student Support', 'Careers, study skills and campus services', [undergrads, graduates, staff]],
  ];
  for (const [name, description, audiences] of categories) {
    categoryIds.set(
      name,
      createCategory(db, MAIN_ORG, { name, description, categoryGroup: null, audience: audiences[0]!, audiences }, now),
    );
  }
  const update = db.prepare('UPDATE mentors SET metadata = ?, is_featured = ? WHERE id = ?');
  for (const mentor of activeMentors(deps, MAIN_ORG)) {
    const taxonomy = DEMO_TAXONOMY[mentor.name];
    if (!taxonomy) continue;
    setMentorCategories(db, mentor.id, [categoryIds.get(taxonomy.category)!]);
    const metadata = {
      level: taxonomy.level,
      category: taxonomy.category,
      language: mentor.name === 'Spanish Conversation' ? 'es' : 'en',
    };
    update.run(JSON.stringify(metadata), rng.chance(0.3) ? 1 : 0, mentor.id);
  }
}
