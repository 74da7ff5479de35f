/**
 * The directory's own calls beside the resource kit's verbs: taking a person off the tenant (`users/delete/`),
 * which the kit's generic delete does not offer because it asks for the person's name typed out.
 */
import { z } from 'zod';
import { call } from './kit';

export const UserRemoval = z.object({
  userId: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  /** The platform's answer ("Account deletion initiated for …"). */
  message: z.string(),
  /** What went with them, as this app last read it: department names, user group names, RBAC policy names. */
  departments: z.array(z.string()),
  groups: z.array(z.string()),
  policies: z.array(z.string()),
});
export type UserRemoval = z.infer<typeof UserRemoval>;

/** A skill or role as a person's learning profile names it. */
export const NamedItem = z.object({ id: z.number().int(), name: z.string() });
export const SkillPoints = z.object({ id: z.number().int().nullable(), name: z.string(), points: z.number() });

/**
 * A person's learning profile as the platform answers it (`catalog/skills/…`, `roles/…`,
 * `milestones/skill_points/user/`): read-only here. `totalPoints` is null when the platform's open answer names none.
 */
export const PersonLearning = z.object({
  username: z.string(),
  desiredSkills: z.array(NamedItem),
  reportedSkills: z.array(NamedItem),
  desiredRoles: z.array(NamedItem),
  reportedRoles: z.array(NamedItem),
  skillPoints: z.array(SkillPoints),
  totalPoints: z.number().nullable(),
});
export type PersonLearning = z.infer<typeof PersonLearning>;

/**
 * Whether a person completed each course they are enrolled in: their enrolments (`enrollment/courses/search/`), each
 * asked of the course's completion milestone (`milestones/completions/course/manage/`). `completedAt` is null when the
 * platform's open answer gives no date.
 */
export const CourseCompletion = z.object({
  courseId: z.string(),
  name: z.string().nullable(),
  completed: z.boolean(),
  completedAt: z.string().nullable(),
});
export type CourseCompletion = z.infer<typeof CourseCompletion>;
export const PersonCompletions = z.object({ username: z.string(), courses: z.array(CourseCompletion) });
export type PersonCompletions = z.infer<typeof PersonCompletions>;

export const peopleCalls = {
  'people.learning': call(
    z.object({ profileId: z.string().min(1).optional(), username: z.string().trim().min(1).max(255) }).strict(),
    PersonLearning,
    "A person's desired and reported skills and roles and their skill points (read-only)",
  ),
  'people.completions': call(
    z
      .object({
        profileId: z.string().min(1).optional(),
        username: z.string().trim().min(1).max(255),
        /** The person's `user_id` (the spec's milestone takes the integer). */
        userId: z.number().int().positive(),
      })
      .strict(),
    PersonCompletions,
    'Whether a person completed each course they are enrolled in, and when (read-only)',
  ),
  'people.remove': call(
    z
      .object({
        profileId: z.string().min(1).optional(),
        /** The person's `user_id`, as the users list has it. */
        id: z.string().min(1).max(100),
        /** Their username or email, typed by the admin: anything else is refused at this field. */
        confirm: z.string().max(320),
      })
      .strict(),
    UserRemoval,
    'Remove a person from the tenant (their department, user groups and policies go too), once their username or email is typed',
  ),
} as const;
