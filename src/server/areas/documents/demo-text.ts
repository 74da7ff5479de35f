import type { Rng } from '../../rng';

/** Small, realistic course notes for the demo mentors, generated deterministically from the seeded PRNG. */

interface Subject {
  course: string;
  topics: string[];
  terms: string[];
}

export const DEMO_SUBJECTS: Record<string, Subject> = {
  'Calculus Coach': {
    course: 'MATH 101 Calculus I',
    topics: [
      'Limits and Continuity',
      'The Derivative',
      'The Chain Rule',
      'Implicit Differentiation',
      'Related Rates',
      'Optimisation',
      'The Definite Integral',
      'Integration by Substitution',
    ],
    terms: [
      'limit',
      'continuity',
      'derivative',
      'tangent line',
      'chain rule',
      'critical point',
      'antiderivative',
      'Riemann sum',
      'fundamental theorem of calculus',
      'inflection point',
    ],
  },
  'Academic Writing Tutor': {
    course: 'WRIT 110 Academic Writing',
    topics: [
      'Thesis Statements',
      'Paragraph Structure',
      'Using Evidence',
      'Paraphrase and Quotation',
      'APA Citations',
      'Revising Drafts',
      'Academic Tone',
    ],
    terms: [
      'thesis statement',
      'topic sentence',
      'evidence',
      'counterargument',
      'paraphrase',
      'in-text citation',
      'reference list',
      'transition',
      'hedging',
      'plagiarism',
    ],
  },
  'Intro to Python': {
    course: 'CS 101 Introduction to Programming',
    topics: [
      'Variables and Types',
      'Conditionals',
      'Loops',
      'Functions',
      'Lists and Dictionaries',
      'Reading Files',
      'Debugging',
      'Exceptions',
    ],
    terms: [
      'variable',
      'integer',
      'string',
      'for loop',
      'while loop',
      'function',
      'return value',
      'list comprehension',
      'dictionary',
      'traceback',
      'exception',
    ],
  },
  'Organic Chemistry Helper': {
    course: 'CHEM 210 Organic Chemistry',
    topics: [
      'Functional Groups',
      'IUPAC Nomenclature',
      'Stereochemistry',
      'SN1 and SN2 Reactions',
      'Elimination Reactions',
      'Aromaticity',
      'Reaction Mechanisms',
    ],
    terms: [
      'functional group',
      'chirality',
      'enantiomer',
      'nucleophile',
      'electrophile',
      'carbocation',
      'leaving group',
      'resonance',
      'aromatic ring',
      'curved arrow',
    ],
  },
  'Career Advisor': {
    course: 'Career Centre Workshop Series',
    topics: [
      'Writing a CV',
      'Cover Letters',
      'Interview Preparation',
      'Finding Internships',
      'Networking',
      'Salary Negotiation',
    ],
    terms: [
      'CV',
      'cover letter',
      'STAR method',
      'internship',
      'networking',
      'LinkedIn profile',
      'reference',
      'job description',
      'transferable skills',
      'offer letter',
    ],
  },
  'Statistics Buddy': {
    course: 'STAT 200 Applied Statistics',
    topics: [
      'Descriptive Statistics',
      'Probability Distributions',
      'Sampling',
      'Confidence Intervals',
      'Hypothesis Testing',
      'Linear Regression',
      'ANOVA',
    ],
    terms: [
      'mean',
      'standard deviation',
      'normal distribution',
      'sampling distribution',
      'confidence interval',
      'p-value',
      'null hypothesis',
      'regression coefficient',
      'residual',
      'effect size',
    ],
  },
  'Financial Accounting': {
    course: 'ACCT 101 Financial Accounting',
    topics: [
      'The Accounting Equation',
      'Double-Entry Bookkeeping',
      'The Income Statement',
      'The Balance Sheet',
      'Cash Flow Statements',
      'Depreciation',
      'Financial Ratios',
    ],
    terms: [
      'assets',
      'liabilities',
      'equity',
      'debit',
      'credit',
      'journal entry',
      'accrual',
      'depreciation',
      'current ratio',
      'retained earnings',
    ],
  },
  'Anatomy Review': {
    course: 'BIOL 230 Human Anatomy',
    topics: [
      'Anatomical Terminology',
      'The Skeletal System',
      'The Muscular System',
      'The Cardiovascular System',
      'The Respiratory System',
      'The Nervous System',
    ],
    terms: [
      'anatomical position',
      'sagittal plane',
      'femur',
      'ligament',
      'skeletal muscle',
      'myocardium',
      'alveoli',
      'neuron',
      'synapse',
      'homeostasis',
    ],
  },
  'Spanish Conversation': {
    course: 'SPAN 102 Spanish Conversation',
    topics: [
      'Greetings and Introductions',
      'Ser and Estar',
      'Ordering Food',
      'Talking About the Past',
      'Asking for Directions',
      'Making Plans',
    ],
    terms: [
      'saludo',
      'ser',
      'estar',
      'preterito',
      'imperfecto',
      'vocabulary list',
      'pronunciation',
      'gender agreement',
      'reflexive verb',
      'question word',
    ],
  },
  'Research Methods': {
    course: 'RSCH 300 Research Methods',
    topics: [
      'Research Questions',
      'Literature Reviews',
      'Study Design',
      'Sampling Strategies',
      'Surveys and Interviews',
      'Research Ethics',
      'Reading a Paper',
    ],
    terms: [
      'research question',
      'hypothesis',
      'literature review',
      'random sample',
      'validity',
      'reliability',
      'informed consent',
      'qualitative data',
      'abstract',
      'limitations section',
    ],
  },
  'Study Skills': {
    course: 'Learning Centre Study Skills',
    topics: [
      'Time Management',
      'Active Reading',
      'Note-Taking',
      'Spaced Repetition',
      'Exam Preparation',
      'Managing Stress',
    ],
    terms: [
      'weekly plan',
      'Pomodoro technique',
      'Cornell notes',
      'retrieval practice',
      'spaced repetition',
      'flashcards',
      'past papers',
      'procrastination',
      'study group',
      'sleep',
    ],
  },
  'Campus Help Desk': {
    course: 'Northbridge Student Services',
    topics: [
      'Enrolment and Registration',
      'Tuition Fees',
      'Student Housing',
      'IT Accounts and Wi-Fi',
      'Library Services',
      'Campus Card',
    ],
    terms: [
      'enrolment deadline',
      'add/drop period',
      'tuition invoice',
      'payment plan',
      'residence hall',
      'single sign-on',
      'eduroam',
      'library loan',
      'campus card',
      'help desk ticket',
    ],
  },
  'Riverside Tutor': {
    course: 'Riverside Foundations',
    topics: ['Orientation Week', 'Foundations of Learning'],
    terms: ['orientation', 'riverside harbour project', 'learning plan', 'tutor group', 'module guide'],
  },
};

const TEMPLATES = [
  'In {topic}, the idea of {a} explains how {b} behaves when the assumptions change.',
  'Before the exam, review {a} and practise at least three problems that combine it with {b}.',
  'A common mistake is to confuse {a} with {b}; compare their definitions side by side.',
  'Worked example: start from {a}, apply {b}, and check the result against the summary table.',
  'Key takeaway: {a} matters because it connects {topic} to {b} in later weeks.',
  'Office hours this week focus on {a}; bring your questions about {b}.',
  'Reading: chapter {n} covers {a} in depth, with exercises {n}.{m} to {n}.{k}.',
  'Remember that {a} only applies when {b} holds; otherwise choose a different approach.',
  'Students often find {a} easier once they have drawn a diagram that shows {b}.',
  'The seminar discussion compared {a} and {b} using examples from previous cohorts.',
];

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function sentence(rng: Rng, subject: Subject, topic: string): string {
  const a = rng.pick(subject.terms);
  let b = rng.pick(subject.terms);
  if (b === a) b = subject.terms[(subject.terms.indexOf(a) + 1) % subject.terms.length]!;
  const n = rng.int(1, 12);
  const m = rng.int(1, 10);
  return capitalise(
    rng
      .pick(TEMPLATES)
      .replace('{topic}', topic.toLowerCase())
      .replace('{a}', a)
      .replace('{b}', b)
      .replaceAll('{n}', String(n))
      .replace('{m}', String(m))
      .replace('{k}', String(m + rng.int(2, 8))),
  );
}

export interface DemoNotes {
  title: string;
  topic: string;
  /** Sections: a heading and its paragraphs. */
  sections: { heading: string; paragraphs: string[] }[];
}

/** Lecture notes on one topic: 2–4 sections of 1–3 paragraphs of 3–5 sentences (roughly 1–3 KB of text). */
export function demoNotes(rng: Rng, subject: Subject, week: number, topic: string): DemoNotes {
  const headings = ['Overview', 'Key ideas', 'Worked examples', 'Common mistakes', 'Practice', 'Summary'];
  const sections = Array.from({ length: rng.int(2, 4) }, (_, i) => ({
    heading: headings[Math.min(i + (i > 0 ? rng.int(0, 2) : 0), headings.length - 1)]!,
    paragraphs: Array.from({ length: rng.int(1, 3) }, () =>
      Array.from({ length: rng.int(3, 5) }, () => sentence(rng, subject, topic)).join(' '),
    ),
  }));
  return { title: `${subject.course} - Week ${week}: ${topic}`, topic, sections };
}

export function notesAsMarkdown(notes: DemoNotes): string {
  return (
    [`# ${notes.title}`, ...notes.sections.flatMap((s) => [`## ${s.heading}`, ...s.paragraphs])].join('\n\n') + '\n'
  );
}

export function notesAsText(notes: DemoNotes): string {
  return [notes.title, ...notes.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n\n') + '\n';
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function notesAsHtml(notes: DemoNotes): string {
  const body = notes.sections
    .map(
      (s) =>
        `<section>\n<h2>${escapeHtml(s.heading)}</h2>\n${s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}\n</section>`,
    )
    .join('\n');
  return `<!doctype html>\n<html><head><title>${escapeHtml(notes.title)}</title><style>body{font-family:sans-serif}</style></head>\n<body>\n<h1>${escapeHtml(notes.title)}</h1>\n${body}\n<script>console.log('course page')</script>\n</body></html>\n`;
}

/** A glossary of the subject's terms as CSV. */
export function glossaryCsv(rng: Rng, subject: Subject): string {
  const rows = subject.terms.map((term) => {
    const topic = rng.pick(subject.topics);
    return `"${term}","Introduced in ${topic}; see the week notes for a worked example.","${topic}"`;
  });
  return ['term,definition,topic', ...rows].join('\n') + '\n';
}
