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
  group: 'Licences',
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
  group: 'Licences',
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
  group: 'Licences',
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
  group: 'Licences',
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
  group: 'Seats',
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
  // The body's `user_id` is the seat holder's (a number), not the connection's user.
  tenant: { platform_key: 'org', user_id: 'none' },
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
  seats: { licenseKind: 'licenses', licenseLabel: 'Licence', groupKind: 'license-group-assignments' },
  listEach: { kind: 'licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/user/assignment/' },
    release: { method: 'delete', path: '/api/catalog/licenses/user/assignment/' },
    check: { method: 'get', path: '/api/catalog/licenses/user/assignment/check/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * One seat of a course licence (`licenses/course/assignment/`): the user licence's seat calls on the course's path,
 * with the same body (`license_id` and `user_id` or `email`), list and release.
 */
export const courseLicenseAssignments = {
  ...licenseAssignments,
  kind: 'course-license-assignments',
  group: 'Seats',
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
  seats: {
    licenseKind: 'course-licenses',
    licenseLabel: 'Course licence',
    groupKind: 'course-license-group-assignments',
  },
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
  group: 'Seats',
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
  seats: {
    licenseKind: 'program-licenses',
    licenseLabel: 'Program licence',
    emailOnly: true,
    groupKind: 'program-license-group-assignments',
  },
  listEach: { kind: 'program-licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/program/assignment/' },
    release: { method: 'delete', path: '/api/catalog/licenses/program/assignment/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * A user group holding a licence (`licenses/user/assignment/group/`): everyone in the group takes a seat. The platform
 * lists them per licence only (listEach); one is given by `license_id` and `group_id` (the kit's create, or the
 * licence's page), and taken back on the licence's page (licences.releaseGroup), where the confirm says that the seats
 * the group gave its people go with it. The course and program families below are the same on their own paths.
 */
export const licenseGroupAssignments = {
  kind: 'license-group-assignments',
  group: 'User groups',
  label: 'Licence group seats',
  singular: 'licence group seat',
  plural: 'licence group seats',
  area: 'licences',
  description: 'Which user groups hold which licence: everyone in the group holds a seat.',
  idField: 'id',
  operations: { create: { method: 'post', path: '/api/catalog/licenses/user/assignment/group/' } },
  envelope: 'none',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'group_name', label: 'User group' },
    { field: 'license_name', label: 'Licence' },
    { field: 'active', label: 'Active', format: 'boolean' },
  ],
  search: ['group_name', 'license_name'],
  fields: [
    { name: 'license_id', label: 'Licence', input: 'reference', references: 'licenses' },
    { name: 'group_id', label: 'User group', input: 'reference', references: 'user-groups' },
  ],
  relations: [{ field: 'license_id', kind: 'licenses', heading: 'User groups' }],
  listEach: { kind: 'licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/user/assignment/group/' },
    release: { method: 'delete', path: '/api/catalog/licenses/user/assignment/group/' },
  },
} as const satisfies ResourceDeclaration;

/** A user group holding a course licence (`licenses/course/assignment/group/`): its answer names the course. */
export const courseLicenseGroupAssignments = {
  ...licenseGroupAssignments,
  kind: 'course-license-group-assignments',
  group: 'User groups',
  label: 'Course licence group seats',
  singular: 'course licence group seat',
  plural: 'course licence group seats',
  description: 'Which user groups hold which course licence: everyone in the group holds a seat.',
  operations: { create: { method: 'post', path: '/api/catalog/licenses/course/assignment/group/' } },
  fields: [
    { name: 'license_id', label: 'Course licence', input: 'reference', references: 'course-licenses' },
    { name: 'group_id', label: 'User group', input: 'reference', references: 'user-groups' },
  ],
  relations: [{ field: 'license_id', kind: 'course-licenses', heading: 'User groups' }],
  listEach: { kind: 'course-licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/course/assignment/group/' },
    release: { method: 'delete', path: '/api/catalog/licenses/course/assignment/group/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * A user group holding a program licence (`licenses/program/assignment/group/`). The spec's notes: every member gets
 * a seat, the licence must have seats enough for all of them or nothing is given, and the removal's
 * `remove_user_assignments` (true by default) says whether the seats the group gave go with it.
 */
export const programLicenseGroupAssignments = {
  ...licenseGroupAssignments,
  kind: 'program-license-group-assignments',
  group: 'User groups',
  label: 'Program licence group seats',
  singular: 'program licence group seat',
  plural: 'program licence group seats',
  description: 'Which user groups hold which program licence: everyone in the group holds a seat.',
  operations: { create: { method: 'post', path: '/api/catalog/licenses/program/assignment/group/' } },
  columns: [
    { field: 'group_name', label: 'User group' },
    { field: 'license_name', label: 'Licence' },
    { field: 'user_count', label: 'People' },
    { field: 'assigned_count', label: 'Holding seats' },
    { field: 'active', label: 'Active', format: 'boolean' },
  ],
  fields: [
    { name: 'license_id', label: 'Program licence', input: 'reference', references: 'program-licenses' },
    { name: 'group_id', label: 'User group', input: 'reference', references: 'user-groups' },
  ],
  relations: [{ field: 'license_id', kind: 'program-licenses', heading: 'User groups' }],
  listEach: { kind: 'program-licenses', call: 'list', param: 'license_id', nameField: 'license_name' },
  calls: {
    list: { method: 'get', path: '/api/catalog/licenses/program/assignment/group/' },
    release: { method: 'delete', path: '/api/catalog/licenses/program/assignment/group/' },
  },
} as const satisfies ResourceDeclaration;

/**
 * Requests by learners for access to a course (`access_requests/course/manage/`, admins only): listed newest first,
 * approved or denied by one POST naming the request (`request_id`) with `approved`. A request already reviewed is
 * `reviewed: true`.
 */
export const accessRequests = {
  kind: 'access-requests',
  group: 'Requests',
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
/** The group seat kinds, one per seat kind (its `seats.groupKind`). */
export const GROUP_SEAT_KINDS = [
  'license-group-assignments',
  'course-license-group-assignments',
  'program-license-group-assignments',
] as const;
export type GroupSeatKind = (typeof GROUP_SEAT_KINDS)[number];
