/** The catalogue's engine part: enrolling a cohort from a CSV file (the enrollments kind's import job), metadata, one enrolment. */
export { enrolmentImportKind, startEnrolmentJob } from './enrol-import';
export { catalogueHandlers } from './single';
export { startSuggestionJob, suggestionImportKind } from './suggest-import';
