/**
 * What a tenant's learners are pointed to and what they say back: course suggestions to a person or to a user group
 * (`/api/catalog/suggestions/course/manage/`, `manage/group/`; administrators only), and course and program reviews
 * (`reviews/course/`, `reviews/program/`, moderated through their `update/` calls).
 *
 * A review has no id of its own: it is one person's review of one item (`course_id @ username`), which is how its
 * update and delete calls name it too.
 */
import type { JsonSchema } from './spec';
import type { ResourceDeclaration } from './kit';

export const courseSuggestions = {
  kind: 'course-suggestions',
  label: 'Course suggestions',
  singular: 'course suggestion',
  plural: 'course suggestions',
  area: 'catalogue',
  group: 'Suggestions and reviews',
  description: 'Courses an administrator suggested to one person: shown to them as recommended.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/suggestions/course/manage/' },
    // "Create or update a course suggestion": one person and one course make one suggestion.
    create: { method: 'post', path: '/api/catalog/suggestions/course/manage/' },
    delete: {
      method: 'delete',
      path: '/api/catalog/suggestions/course/manage/',
      id: { in: 'query', name: 'suggestion_id' },
    },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org', user_id: 'none' },
  columns: [
    { field: 'username', label: 'Person' },
    { field: 'course_name', label: 'Course' },
    { field: 'accepted', label: 'Accepted', format: 'boolean' },
    { field: 'visible', label: 'Visible', format: 'boolean' },
    { field: 'created', label: 'Suggested', format: 'datetime' },
  ],
  search: ['username', 'name', 'course_name', 'course_id'],
  fields: [
    { name: 'course_id', label: 'Course', input: 'reference', references: 'courses' },
    {
      name: 'user_id',
      label: 'Person',
      input: 'reference',
      references: 'users',
      description: 'Who sees the course as suggested to them.',
    },
    { name: 'visible', label: 'Visible to them', input: 'switch', initial: true },
  ],
  relations: [{ field: 'course_id', kind: 'courses', heading: 'Suggested to', counted: true }],
  suggestion: {
    groupLabel: 'Course',
    groupSynonyms: ['course', 'course id', 'course key', 'course name', 'suggest', 'suggested course'],
  },
  confirmDelete: 'Withdraw the suggestion {id}? The person no longer sees the course as suggested.',
  deleteLabel: 'Withdraw',
} as const satisfies ResourceDeclaration;

export const courseGroupSuggestions = {
  kind: 'course-group-suggestions',
  label: 'Group course suggestions',
  singular: 'group course suggestion',
  plural: 'group course suggestions',
  area: 'catalogue',
  group: 'Suggestions and reviews',
  description: 'Courses suggested to everyone in a user group.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/suggestions/course/manage/group/' },
    create: { method: 'post', path: '/api/catalog/suggestions/course/manage/group/' },
    delete: {
      method: 'delete',
      path: '/api/catalog/suggestions/course/manage/group/',
      id: { in: 'query', name: 'suggestion_id' },
    },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'group_name', label: 'Group' },
    { field: 'course_name', label: 'Course' },
    { field: 'user_count', label: 'People' },
    { field: 'visible', label: 'Visible', format: 'boolean' },
    { field: 'created', label: 'Suggested', format: 'datetime' },
  ],
  search: ['group_name', 'course_name', 'course_id'],
  fields: [
    { name: 'course_id', label: 'Course', input: 'reference', references: 'courses' },
    { name: 'group_id', label: 'User group', input: 'reference', references: 'user-groups' },
    { name: 'visible', label: 'Visible to them', input: 'switch', initial: true },
  ],
  confirmDelete: 'Withdraw the group suggestion {id}? Its people no longer see the course as suggested.',
  deleteLabel: 'Withdraw',
} as const satisfies ResourceDeclaration;

/** A review as `review.to_json()` answers it (the spec's CourseReviewResponse); the list's records are left open. */
const courseReview: JsonSchema = {
  type: 'object',
  properties: {
    course_id: { type: 'string' },
    user_id: { type: 'integer' },
    username: { type: 'string' },
    rating: { type: 'number', nullable: true },
    title: { type: 'string' },
    content: { type: 'string' },
    visible: { type: 'boolean' },
    created: { type: 'string', format: 'date-time' },
    modified: { type: 'string', format: 'date-time' },
    metadata: {},
  },
  required: ['course_id', 'username'],
};

const reviewColumns = [
  { field: 'username', label: 'Reviewer' },
  { field: 'rating', label: 'Rating' },
  { field: 'title', label: 'Title' },
  { field: 'visible', label: 'Visible', format: 'boolean' },
  { field: 'modified', label: 'Changed', format: 'datetime' },
] as const;

// Moderation: hide or show a review, or correct its title and text; the reviewer's rating is theirs.
const reviewFields = [
  { name: 'visible', label: 'Visible', input: 'switch' },
  { name: 'title', label: 'Title', input: 'text' },
  { name: 'content', label: 'Review', input: 'textarea' },
] as const;

export const courseReviews = {
  kind: 'course-reviews',
  label: 'Course reviews',
  singular: 'course review',
  plural: 'course reviews',
  area: 'catalogue',
  group: 'Suggestions and reviews',
  description: 'What learners said about a course, with their rating: hide a review, or correct it.',
  idField: 'course_id',
  compositeId: ['course_id', 'username'],
  operations: {
    list: { method: 'get', path: '/api/catalog/reviews/course/' },
    update: { method: 'post', path: '/api/catalog/reviews/course/update/', id: { in: 'body', name: 'course_id' } },
    delete: { method: 'delete', path: '/api/catalog/reviews/course/update/', id: { in: 'query', name: 'course_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org', user_id: 'none' },
  columns: [{ field: 'course_id', label: 'Course', references: 'courses' }, ...reviewColumns],
  search: ['username', 'title', 'content', 'course_id'],
  filters: [
    { field: 'course_id', label: 'Course', input: 'text', param: 'course_id' },
    { field: 'visible', label: 'Visible', input: 'switch' },
  ],
  fields: reviewFields,
  relations: [{ field: 'course_id', kind: 'courses', heading: 'Reviews', counted: true }],
  inferred: {
    from: 'the spec leaves the records of reviews/course/ open; their fields are its CourseReviewResponse',
    list: { record: courseReview },
  },
  confirmDelete: 'Delete the review {id}? The reviewer’s words and rating are gone for good; hiding it keeps them.',
} as const satisfies ResourceDeclaration;

export const programReviews = {
  kind: 'program-reviews',
  label: 'Program reviews',
  singular: 'program review',
  plural: 'program reviews',
  area: 'catalogue',
  group: 'Suggestions and reviews',
  description: 'What learners said about a program, with their rating: hide a review, or correct it.',
  idField: 'program_key',
  compositeId: ['program_key', 'username'],
  operations: {
    list: { method: 'get', path: '/api/catalog/reviews/program/' },
    update: {
      method: 'post',
      path: '/api/catalog/reviews/program/update/',
      id: { in: 'body', name: 'program_key' },
    },
    delete: {
      method: 'delete',
      path: '/api/catalog/reviews/program/update/',
      id: { in: 'query', name: 'program_key' },
    },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org', user_id: 'none' },
  columns: [
    { field: 'program_key', label: 'Program', references: 'programs', referencesField: 'program_key' },
    ...reviewColumns,
  ],
  search: ['username', 'title', 'content', 'program_key'],
  filters: [{ field: 'visible', label: 'Visible', input: 'switch' }],
  fields: reviewFields,
  confirmDelete: 'Delete the review {id}? The reviewer’s words and rating are gone for good; hiding it keeps them.',
} as const satisfies ResourceDeclaration;
