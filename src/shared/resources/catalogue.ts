/**
 * The catalogue: courses, pathways and programs (`/api/catalog/courses/`, `pathways/`, `programs/`), and who is
 * enrolled in the courses (`enrollment/courses/search/`). Every catalogue call names the tenant in its query or body
 * (`org`, `platform_key`), never in its path. The platform's "manage" calls are for administrators; learners use the
 * "self" and "public" ones (seed §6), which this app does not call.
 */
import type { ResourceDeclaration } from './kit';

export const courses = {
  kind: 'courses',
  label: 'Courses',
  singular: 'course',
  plural: 'courses',
  area: 'catalogue',
  description:
    'The tenant’s courses: learners get into one through a program or pathway that contains it, or by invitation.',
  idField: 'course_id',
  operations: {
    list: { method: 'get', path: '/api/catalog/courses/' },
    // "Add or update a course": the same call, the course named by its id in the body.
    create: { method: 'post', path: '/api/catalog/courses/' },
    update: { method: 'post', path: '/api/catalog/courses/', id: { in: 'body', name: 'course_id' } },
    delete: { method: 'delete', path: '/api/catalog/courses/', id: { in: 'query', name: 'course_id' } },
  },
  envelope: 'array',
  tenant: { org: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'course_id', label: 'Course ID' },
    { field: 'slug', label: 'Slug' },
  ],
  search: ['name', 'course_id', 'slug'],
  filters: [{ field: 'slug', label: 'Slug', input: 'text', param: 'slug' }],
  fields: [
    {
      name: 'course_id',
      label: 'Course ID',
      input: 'text',
      placeholder: 'course-v1:main+CS101+2026',
      createOnly: true,
    },
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Introduction to Programming' },
    { name: 'slug', label: 'Slug', input: 'text', placeholder: 'intro-programming' },
  ],
  csv: [
    { field: 'course_id', label: 'Course ID', synonyms: ['course', 'course key', 'id'] },
    { field: 'name', label: 'Name', synonyms: ['course name', 'title'] },
    { field: 'slug', label: 'Slug' },
  ],
  confirmDelete: 'Delete the course {id}? Its enrolments and invitations go with it.',
} as const satisfies ResourceDeclaration;

export const pathways = {
  kind: 'pathways',
  label: 'Pathways',
  singular: 'pathway',
  plural: 'pathways',
  area: 'catalogue',
  description: 'Ordered paths through courses and other items, owned by a person.',
  idField: 'pathway_id',
  operations: {
    list: { method: 'get', path: '/api/catalog/pathways/' },
    create: { method: 'post', path: '/api/catalog/pathways/' },
    update: { method: 'post', path: '/api/catalog/pathways/', id: { in: 'body', name: 'pathway_id' } },
    // Removed by its id and its owner's user_id (required): the owner comes from the pathway's record.
    delete: { method: 'delete', path: '/api/catalog/pathways/', id: { in: 'query', name: 'pathway_id' } },
  },
  envelope: 'array',
  // Its user_id is the owner's (a number), never the connection's username.
  tenant: { platform_key: 'org', user_id: 'none' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'pathway_id', label: 'Pathway ID' },
    { field: 'username', label: 'Owner' },
    { field: 'visible', label: 'Visible', format: 'boolean' },
  ],
  search: ['name', 'pathway_id', 'slug', 'username'],
  filters: [{ field: 'visible', label: 'Visible', input: 'switch', param: 'visible' }],
  fields: [
    { name: 'pathway_id', label: 'Pathway ID', input: 'text', placeholder: 'data-foundations', createOnly: true },
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Data foundations' },
    { name: 'slug', label: 'Slug', input: 'text', placeholder: 'data-foundations' },
    { name: 'user_id', label: 'Owner’s user ID', input: 'number' },
    { name: 'visible', label: 'Visible', input: 'switch', initial: true },
    {
      name: 'path',
      label: 'Items',
      input: 'json',
      description: 'The items in order: [{"item_id": "course-v1:…", "position": 1}, …].',
      initial: '[]',
      lists: { kind: 'courses', key: 'item_id' },
    },
  ],
  // Its numeric id, uuid and owner's user number are the platform's own: the Owner column names the person.
  details: { hidden: ['id', 'pathway_uuid', 'user_id'], labels: { updated_at: 'Updated', created_at: 'Created' } },
  confirmDelete: 'Delete the pathway {id}? Its owner loses it too.',
} as const satisfies ResourceDeclaration;

export const programs = {
  kind: 'programs',
  label: 'Programs',
  singular: 'program',
  plural: 'programs',
  area: 'catalogue',
  description: 'Certificates and diplomas made of several courses.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/catalog/programs/' },
    create: { method: 'post', path: '/api/catalog/programs/' },
    // "Add or update a program" and its removal name it by its program_id, not the numeric id it is listed under.
    update: {
      method: 'post',
      path: '/api/catalog/programs/',
      id: { in: 'body', name: 'program_id', field: 'program_id' },
    },
    delete: {
      method: 'delete',
      path: '/api/catalog/programs/',
      id: { in: 'query', name: 'program_id', field: 'program_id' },
    },
  },
  envelope: 'array',
  tenant: { org: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'program_type', label: 'Type' },
    { field: 'duration', label: 'Months' },
    { field: 'created_at', label: 'Created', format: 'datetime' },
  ],
  search: ['name', 'program_type', 'description'],
  fields: [
    { name: 'program_id', label: 'Program ID', input: 'text', placeholder: 'data-science', createOnly: true },
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Data Science Certificate' },
    { name: 'program_type', label: 'Type', input: 'text', suggestions: ['certificate', 'diploma', 'degree'] },
    { name: 'enabled', label: 'Enabled', input: 'switch', initial: true },
    {
      name: 'course_list',
      label: 'Courses',
      input: 'json',
      description: 'The courses in order: [{"course_id": "course-v1:…", "position": 1}, …].',
      initial: '[]',
      lists: { kind: 'courses', key: 'course_id' },
    },
  ],
  details: { hidden: ['institution_id'], labels: { program_key: 'Key', updated_at: 'Updated' } },
} as const satisfies ResourceDeclaration;

/**
 * Who is enrolled in which course (`enrollment/courses/search/`, newest first). The spec answers one
 * `CourseEnrollmentSearchResponse` for this search although it takes `page` and `page_size`; the app reads it as the
 * catalog's other lists answer, a page of them (`{count, next_page, previous_page, results}`). An enrolment has no
 * id of its own: it is a person in a course.
 */
export const enrollments = {
  kind: 'enrollments',
  label: 'Enrolments',
  singular: 'enrolment',
  plural: 'enrolments',
  area: 'catalogue',
  description: 'Who is enrolled in which course.',
  idField: 'course_id',
  compositeId: ['course_id', 'username'],
  operations: {
    list: { method: 'get', path: '/api/catalog/enrollment/courses/search/' },
  },
  envelope: 'drf',
  listAnswerDeclared: 'one',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'username', label: 'Username' },
    { field: 'email', label: 'Email' },
    { field: 'course_name', label: 'Course' },
    { field: 'active', label: 'Active', format: 'boolean' },
    { field: 'created', label: 'Enrolled', format: 'datetime' },
  ],
  search: ['username', 'email', 'name', 'course_name', 'course_id'],
  filters: [
    { field: 'course_id', label: 'Course', input: 'text', param: 'course_id' },
    { field: 'email', label: 'Email', input: 'text', param: 'email' },
  ],
  fields: [],
  // A course's details list who is enrolled, with the platform's count.
  relations: [{ field: 'course_id', kind: 'courses', heading: 'Enrolled', counted: true }],
  // The platform has no call that enrols in a course: the Enrolments tab says how people get in (CatalogueScreen).
  note: 'People get into a course through a program or pathway that contains it, or by an invitation to the course.',
} as const satisfies ResourceDeclaration;

/**
 * Who is enrolled in which program (`enrollment/programs/search/`, newest first, pages of
 * `ProgramEnrollmentSearchResponse`): where a cohort enrolled from a CSV file shows. Kept under program and person.
 * Its import enrols people in programs and pathways (engine/catalogue/enrol-import.ts); a row naming a course (a
 * `course` column is matched so that such a file is read and its course rows told why) is reported on its row.
 */
export const programEnrollments = {
  kind: 'program-enrollments',
  label: 'Program enrolments',
  singular: 'program enrolment',
  plural: 'program enrolments',
  area: 'catalogue',
  description: 'Who is enrolled in which program; enrol a cohort in programs and pathways from a CSV file.',
  idField: 'program_key',
  compositeId: ['program_key', 'username'],
  operations: {
    list: { method: 'get', path: '/api/catalog/enrollment/programs/search/' },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'username', label: 'Username' },
    { field: 'name', label: 'Program' },
    { field: 'active', label: 'Active', format: 'boolean' },
    { field: 'created', label: 'Enrolled', format: 'datetime' },
  ],
  search: ['username', 'name', 'program_key', 'program_id'],
  filters: [{ field: 'program_id', label: 'Program', input: 'text', param: 'program_id' }],
  fields: [],
  enrolment: {
    groupLabel: 'Program or pathway',
    groupSynonyms: [
      'program',
      'programme',
      'pathway',
      'program id',
      'program key',
      'pathway id',
      'course',
      'course id',
      'item',
      'catalogue item',
      'catalog item',
      'enrol in',
      'enroll in',
    ],
  },
} as const satisfies ResourceDeclaration;
