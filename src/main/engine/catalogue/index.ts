/** The catalogue's engine part: enrolling a cohort from a CSV file (the enrollments kind's import job). */
export { enrolmentImportKind, startEnrolmentJob } from './enrol-import';
export { startSuggestionJob, suggestionImportKind } from './suggest-import';
