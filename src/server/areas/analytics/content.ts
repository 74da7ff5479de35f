/**
 * The vocabulary of the generated chat and learning data: topics per demo mentor, LLM models with their prices,
 * message templates and the course catalogue. Static tables only; all randomness comes from the seeding Rng.
 */

export type Sentiment = 'positive' | 'neutral' | 'negative';
export const SENTIMENTS: readonly Sentiment[] = ['positive', 'neutral', 'negative'];

export interface LlmModel {
  name: string;
  provider: string;
  /** US dollars per 1,000 prompt and completion tokens. */
  promptPer1k: number;
  completionPer1k: number;
}

export const MODELS: readonly LlmModel[] = [
  { name: 'gpt-4o', provider: 'openai', promptPer1k: 0.0025, completionPer1k: 0.01 },
  { name: 'gpt-4o-mini', provider: 'openai', promptPer1k: 0.00015, completionPer1k: 0.0006 },
  { name: 'claude-sonnet', provider: 'anthropic', promptPer1k: 0.003, completionPer1k: 0.015 },
];

/** Topics each demo mentor's conversations are about (by mentor name); other mentors use GENERAL_TOPICS. */
export const MENTOR_TOPICS: Readonly<Record<string, readonly string[]>> = {
  'Calculus Coach': ['Limits', 'Derivatives', 'Chain rule', 'Integrals', 'Series', 'Optimization problems'],
  'Academic Writing Tutor': ['Thesis statements', 'Essay structure', 'Citations', 'Paraphrasing', 'Literature review'],
  'Intro to Python': [
    'Variables and types',
    'Loops',
    'Functions',
    'Lists and dictionaries',
    'Debugging',
    'File handling',
  ],
  'Organic Chemistry Helper': [
    'Reaction mechanisms',
    'Nomenclature',
    'Stereochemistry',
    'Functional groups',
    'Spectroscopy',
  ],
  'Career Advisor': ['CV writing', 'Interview practice', 'Internships', 'Cover letters', 'Networking'],
  'Statistics Buddy': [
    'Probability distributions',
    'Hypothesis testing',
    'Regression',
    'Confidence intervals',
    'Sampling',
  ],
  'Financial Accounting': [
    'Balance sheets',
    'Income statements',
    'Double-entry bookkeeping',
    'Financial ratios',
    'Depreciation',
  ],
  'Anatomy Review': [
    'Skeletal system',
    'Cardiovascular system',
    'Nervous system',
    'Muscle groups',
    'Medical terminology',
  ],
  'Spanish Conversation': ['Verb conjugation', 'Everyday phrases', 'Pronunciation', 'Past tenses', 'Vocabulary'],
  'Research Methods': ['Study design', 'Surveys', 'Qualitative methods', 'Reading papers', 'Research ethics'],
  'Study Skills': ['Time management', 'Note taking', 'Memory techniques', 'Procrastination', 'Exam anxiety'],
  'Campus Help Desk': ['Enrolment', 'Tuition fees', 'Housing', 'IT accounts', 'Library access', 'Timetables'],
};
export const GENERAL_TOPICS: readonly string[] = [
  'Exam preparation',
  'Assignment help',
  'Course logistics',
  'Study planning',
];

/** Relative share of conversations per demo mentor (popular helpers get more traffic). */
export const MENTOR_WEIGHT: Readonly<Record<string, number>> = {
  'Campus Help Desk': 3,
  'Intro to Python': 2.5,
  'Calculus Coach': 2,
  'Academic Writing Tutor': 2,
  'Statistics Buddy': 1.5,
  'Study Skills': 1.5,
};

const QUESTIONS = [
  'Can you explain {t} with a simple example?',
  'I am stuck on {t}. Where should I start?',
  'What is the most common mistake people make with {t}?',
  'Could you give me a practice question about {t}?',
  'How does {t} relate to what we covered last week?',
  'I do not understand the lecture notes on {t}. Can you help?',
  'Is there a quick way to check my answer on {t}?',
  'What should I focus on for the exam regarding {t}?',
];
const FOLLOW_UPS = [
  'Thanks, that helps. What about a harder case?',
  'Can you go over the second step again?',
  'So if I change one thing, does the result change too?',
  'Could you summarise that in three bullet points?',
  'I tried it and got a different answer. What did I miss?',
  'Great, can you give me another example?',
];
const ANSWERS = [
  'Good question. Think of {t} as a step-by-step process: first identify what is given, then apply the rule, then check the result against a simple case.',
  'Here is a short example on {t}. Work through it yourself first, then compare with the worked solution below and note where your approach differs.',
  'A common pitfall with {t} is skipping the definition. Start from the definition, write down each step, and the pattern becomes much clearer.',
  'Let us break {t} into smaller pieces. Once each piece makes sense on its own, combining them is usually straightforward.',
  'For the exam, focus on the core ideas of {t}: be able to explain them in your own words and solve one standard problem without notes.',
];
const CLOSINGS = [
  'You are on the right track. Try one more practice problem and tell me how it goes.',
  'Exactly. If anything is still unclear, ask me about the specific step.',
  'Nice work. Reviewing this again in two days will help it stick.',
];

export const fill = (template: string, topic: string) => template.replace('{t}', topic.toLowerCase());
export const TEXT = { QUESTIONS, FOLLOW_UPS, ANSWERS, CLOSINGS };

/** The main tenant's course catalogue: 40 courses across the four seeded departments. */
export const COURSES: readonly { code: string; name: string }[] = [
  { code: 'CS101', name: 'Introduction to Programming' },
  { code: 'CS102', name: 'Data Structures' },
  { code: 'CS201', name: 'Algorithms' },
  { code: 'CS210', name: 'Databases' },
  { code: 'CS220', name: 'Web Development' },
  { code: 'CS230', name: 'Machine Learning Foundations' },
  { code: 'CS240', name: 'Computer Networks' },
  { code: 'CS250', name: 'Operating Systems' },
  { code: 'MATH101', name: 'Calculus I' },
  { code: 'MATH102', name: 'Calculus II' },
  { code: 'MATH201', name: 'Linear Algebra' },
  { code: 'STAT101', name: 'Introductory Statistics' },
  { code: 'STAT201', name: 'Applied Regression' },
  { code: 'ENG101', name: 'Engineering Mechanics' },
  { code: 'ENG201', name: 'Thermodynamics' },
  { code: 'ENG210', name: 'Circuits and Electronics' },
  { code: 'BUS101', name: 'Principles of Management' },
  { code: 'BUS110', name: 'Financial Accounting' },
  { code: 'BUS120', name: 'Managerial Accounting' },
  { code: 'BUS201', name: 'Marketing Fundamentals' },
  { code: 'BUS210', name: 'Corporate Finance' },
  { code: 'BUS220', name: 'Business Analytics' },
  { code: 'BUS230', name: 'Entrepreneurship' },
  { code: 'ECON101', name: 'Microeconomics' },
  { code: 'ECON102', name: 'Macroeconomics' },
  { code: 'MED101', name: 'Human Anatomy' },
  { code: 'MED102', name: 'Physiology' },
  { code: 'MED201', name: 'Biochemistry' },
  { code: 'MED210', name: 'Pharmacology Basics' },
  { code: 'MED220', name: 'Medical Ethics' },
  { code: 'CHEM101', name: 'General Chemistry' },
  { code: 'CHEM201', name: 'Organic Chemistry' },
  { code: 'HUM101', name: 'Academic Writing' },
  { code: 'HUM110', name: 'Introduction to Philosophy' },
  { code: 'HUM120', name: 'World History' },
  { code: 'HUM130', name: 'Spanish I' },
  { code: 'HUM140', name: 'Spanish II' },
  { code: 'HUM201', name: 'Research Methods' },
  { code: 'GEN101', name: 'Study Skills for University' },
  { code: 'GEN110', name: 'Career Readiness' },
];
export const OTHER_ORG_COURSES: readonly { code: string; name: string }[] = [
  { code: 'RC100', name: 'Riverside Orientation' },
  { code: 'RC110', name: 'Riverside Writing Lab' },
];
