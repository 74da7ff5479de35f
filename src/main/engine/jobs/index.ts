/**
 * The one job runner, and the journal it and every job kind share (JobJournal: the only code that touches `jobs` and
 * `job_items`). Job kinds live in their areas, which register them with the runner (`runner.register`).
 */
export { idRuns, JobJournal, UNFINISHED_STATES } from './journal';
export type { ItemRow, ItemTotals, JobRow, NewItem, WorkItem } from './journal';
export { JobRunner, JobFailed, JobNeedsAttention } from './runner';
export type { ItemReport, JobContext, JobKindRunner } from './runner';
export { jobHandlers, defaultExportDir } from './handlers';
export { followJobsElsewhere } from './elsewhere';
export { ProgressMeter } from './progress';
export { isThrottle, isThrottleEvent, Limiter } from './limiter';
export type { Slot } from './limiter';
