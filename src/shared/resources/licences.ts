/**
 * Licences and their seats (`/api/catalog/licenses/user/…`): a user licence is a number of seats (`count`) of which
 * `usage_count` are taken; a seat is an assignment of the licence to one person (by user id or email). The spec's
 * licence and assignment shapes are its own (UserLicenseDetail, UserLicenseAssignmentDetail); nothing is inferred.
 *
 * The spec does not say what the platform does with more assignments than seats: the app warns (a dry run names the
 * rows that will not fit), the sandbox stores them, and neither refuses.
 */
import type { ResourceDeclaration } from './kit';

export const licenses = {
  kind: 'licenses',
  label: 'Licences',
  singular: 'licence',
  plural: 'licences',
  area: 'licences',
  description: 'Seats on the tenant that the platform hands to people: how many, how many are taken, until when.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/licenses/user/' },
    create: { method: 'post', path: '/api/catalog/licenses/user/create/' },
    update: { method: 'post', path: '/api/catalog/licenses/user/update/', id: { in: 'body', name: 'license_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'count', label: 'Seats' },
    { field: 'usage_count', label: 'Used' },
    { field: 'expired', label: 'Expires', format: 'expiry' },
    { field: 'active', label: 'Active', format: 'boolean' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'external_id', 'source'],
  filters: [{ field: 'active', label: 'Active', input: 'switch', param: 'active' }],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Spring cohort seats' },
    { name: 'count', label: 'Seats', input: 'number' },
    { name: 'started', label: 'Starts', input: 'date' },
    { name: 'expired', label: 'Expires', input: 'date' },
    { name: 'active', label: 'Active', input: 'switch', initial: true },
    { name: 'external_id', label: 'External ID', input: 'text' },
  ],
  csv: [
    { field: 'name', label: 'Name', synonyms: ['licence', 'license', 'licence name', 'license name'] },
    { field: 'count', label: 'Seats', synonyms: ['seats', 'count', 'quantity'] },
    { field: 'expired', label: 'Expires', synonyms: ['expiry', 'expires', 'expiration', 'end'] },
  ],
} as const satisfies ResourceDeclaration;

const licenceColumns = [
  { field: 'name', label: 'Name' },
  { field: 'count', label: 'Seats' },
  { field: 'usage_count', label: 'Used' },
  { field: 'expired', label: 'Expires', format: 'expiry' },
  { field: 'active', label: 'Active', format: 'boolean' },
  { field: 'id', label: 'ID' },
] as const;
const licenceFields = [
  { name: 'name', label: 'Name', input: 'text' },
  { name: 'count', label: 'Seats', input: 'number' },
  { name: 'started', label: 'Starts', input: 'date' },
  { name: 'expired', label: 'Expires', input: 'date' },
  { name: 'active', label: 'Active', input: 'switch', initial: true },
] as const;

/** A course's licences (`licenses/course/`): seats of one course, given as a user licence's are (courseLicenseAssignments). */
export const courseLicenses = {
  kind: 'course-licenses',
  label: 'Course licences',
  singular: 'course licence',
  plural: 'course licences',
  area: 'licences',
  description: 'Seats of one course each.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/licenses/course/' },
    create: { method: 'post', path: '/api/catalog/licenses/course/create/' },
    update: { method: 'post', path: '/api/catalog/licenses/course/update/', id: { in: 'body', name: 'license_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [{ field: 'course_id', label: 'Course', references: 'courses' }, ...licenceColumns],
  search: ['name', 'course_id', 'external_id'],
  filters: [{ field: 'active', label: 'Active', input: 'switch', param: 'active' }],
  fields: [
    { name: 'course_id', label: 'Course', input: 'text', placeholder: 'course-v1:org+CS101+2026', createOnly: true },
    ...licenceFields,
  ],
} as const satisfies ResourceDeclaration;

/** A program's licences (`licenses/program/`): seats of one program, given as a user licence's are (programLicenseAssignments). */
export const programLicenses = {
  kind: 'program-licenses',
  label: 'Program licences',
  singular: 'program licence',
  plural: 'program licences',
  area: 'licences',
  description: 'Seats of one program each.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/licenses/program/' },
    create: { method: 'post', path: '/api/catalog/licenses/program/create/' },
    update: { method: 'post', path: '/api/catalog/licenses/program/update/', id: { in: 'body', name: 'license_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'program_key', label: 'Program', references: 'programs', referencesField: 'program_key' },
    ...licenceColumns,
  ],
  search: ['name', 'program_key', 'external_id'],
  filters: [{ field: 'active', label: 'Active', input: 'switch', param: 'active' }],
  fields: [{ name: 'program_key', label: 'Program', input: 'text', createOnly: true }, ...licenceFields],
} as const satisfies ResourceDeclaration;

/** The tenant's own licences (`licenses/platform/`: list, create and update only; no seats). */
export const platformLicenses = {
  kind: 'platform-licenses',
  label: 'Platform licences',
  singular: 'platform licence',
  plural: 'platform licences',
  area: 'licences',
  description: 'The tenant’s licences of the platform itself.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/licenses/platform/' },
    create: { method: 'post', path: '/api/catalog/licenses/platform/create/' },
    update: { method: 'post', path: '/api/catalog/licenses/platform/update/', id: { in: 'body', name: 'license_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: licenceColumns.filter((column) => column.field !== 'usage_count'),
  search: ['name', 'external_id'],
  filters: [{ field: 'active', label: 'Active', input: 'switch', param: 'active' }],
  fields: licenceFields,
} as const satisfies ResourceDeclaration;

/**
 * One seat of a user licence held by one person. The platform lists them per licence only (`license_id` is required),
 * so the kit's list reads each licence's (listEach), naming the licence; a licence's page reads its seats with its
 * group seats (licences.seats), and a CSV file of people takes seats in a `licence-seats` job (seat-import.ts).
 */
export const licenseAssignments = {
  kind: 'license-assignments',
  label: 'Licence seats',
  singular: 'licence seat',
  plural: 'licence seats',
  area: 'licences',
  description: 'Who holds a seat of which licence.',
  idField: 'id',
  operations: {
    create: { method: 'post', path: '/api/catalog/licenses/user/assignment/' },
  },
  envelope: 'none',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'username', label: 'Username' },
    { field: 'email', label: 'Email' },
    { field: 'license_name', label: 'Licence' },
    { field: 'active', label: 'Active', format: 'boolean' },
  ],
  search: ['username', 'email', 'license_name'],
  fields: [
    { name: 'license_id', label: 'Licence', input: 'reference', references: 'licenses' },
    { name: 'email', label: 'Email', input: 'text', placeholder: 'person@example.edu' },
  ],
  relations: [{ field: 'license_id', kind: 'licenses', heading: 'Seats' }],
  seats: { licenseKind: 'licenses', licenseLabel: 'Licence' },
  listEach: { kind: 'licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/user/assignment/' },
    release: { method: 'delete', path: '/api/catalog/licenses/user/assignment/' },
    groups: { method: 'get', path: '/api/catalog/licenses/user/assignment/group/' },
    assignGroup: { method: 'post', path: '/api/catalog/licenses/user/assignment/group/' },
    releaseGroup: { method: 'delete', path: '/api/catalog/licenses/user/assignment/group/' },
    check: { method: 'get', path: '/api/catalog/licenses/user/assignment/check/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * One seat of a course licence (`licenses/course/assignment/`): the user licence's seat calls on the course's path,
 * with the same body (`license_id` and `user_id` or `email`), list and release. The group calls are not used here.
 */
export const courseLicenseAssignments = {
  ...licenseAssignments,
  kind: 'course-license-assignments',
  label: 'Course licence seats',
  singular: 'course licence seat',
  plural: 'course licence seats',
  description: 'Who holds a seat of which course licence.',
  operations: { create: { method: 'post', path: '/api/catalog/licenses/course/assignment/' } },
  fields: [
    { name: 'license_id', label: 'Course licence', input: 'reference', references: 'course-licenses' },
    { name: 'email', label: 'Email', input: 'text', placeholder: 'person@example.edu' },
  ],
  relations: [{ field: 'license_id', kind: 'course-licenses', heading: 'Seats' }],
  seats: { licenseKind: 'course-licenses', licenseLabel: 'Course licence' },
  listEach: { kind: 'course-licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/course/assignment/' },
    release: { method: 'delete', path: '/api/catalog/licenses/course/assignment/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * One seat of a program licence (`licenses/program/assignment/`). The spec's notes on its request: "The license must
 * have available seats for the assignment to succeed", and an email with no account yet gets an email-only seat
 * (its `user_id` and `username` null) — so a dry run's row with no account would still take a seat here.
 */
export const programLicenseAssignments = {
  ...licenseAssignments,
  kind: 'program-license-assignments',
  label: 'Program licence seats',
  singular: 'program licence seat',
  plural: 'program licence seats',
  description: 'Who holds a seat of which program licence.',
  operations: { create: { method: 'post', path: '/api/catalog/licenses/program/assignment/' } },
  fields: [
    { name: 'license_id', label: 'Program licence', input: 'reference', references: 'program-licenses' },
    { name: 'email', label: 'Email', input: 'text', placeholder: 'person@example.edu' },
  ],
  relations: [{ field: 'license_id', kind: 'program-licenses', heading: 'Seats' }],
  seats: { licenseKind: 'program-licenses', licenseLabel: 'Program licence', emailOnly: true },
  listEach: { kind: 'program-licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/program/assignment/' },
    release: { method: 'delete', path: '/api/catalog/licenses/program/assignment/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * Requests by learners for access to a course (`access_requests/course/manage/`, admins only): listed newest first,
 * approved or denied by one POST naming the request (`request_id`) with `approved`. A request already reviewed is
 * `reviewed: true`.
 */
export const accessRequests = {
  kind: 'access-requests',
  label: 'Access requests',
  singular: 'access request',
  plural: 'access requests',
  area: 'licences',
  description: 'Learners asking for a course: approve or deny each one.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/access_requests/course/manage/' },
    update: {
      method: 'post',
      path: '/api/catalog/access_requests/course/manage/',
      id: { in: 'body', name: 'request_id' },
    },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'username', label: 'Username' },
    { field: 'course_id', label: 'Course', references: 'courses' },
    { field: 'created', label: 'Asked', format: 'datetime' },
    { field: 'reviewed', label: 'Reviewed', format: 'boolean' },
    { field: 'approved', label: 'Approved', format: 'boolean' },
  ],
  search: ['name', 'username', 'course_id'],
  filters: [{ field: 'reviewed', label: 'Reviewed', input: 'switch', param: 'reviewed' }],
  fields: [{ name: 'approved', label: 'Approved', input: 'switch' }],
} as const satisfies ResourceDeclaration;

/** The seat kinds: one per licence family whose seats the app gives (user, course, program licences). */
export const SEAT_KINDS = ['license-assignments', 'course-license-assignments', 'program-license-assignments'] as const;
export type SeatKind = (typeof SEAT_KINDS)[number];
