/** One people-file import job for every kind whose CSV file names people (job.ts), and the tenant's people it reads. */
export {
  eachInLimiter,
  endsRun,
  peopleImportJob,
  settleRepeats,
  startPeopleImport,
  type ImportMode,
  type Outcome,
  type PeopleImport,
  type PeopleItemData,
  type PeopleRow,
  type PeopleRun,
  type Sendable,
  type Settled,
  type Work,
} from './job';
export { noSuchPerson, personKey, readTenantPeople, TenantPeople, type TenantPerson } from './people';
export { readPeopleFile, type PeopleFile } from './read';
export { PAIR_COLUMNS, peopleCount, startKitImport, type KitImportParams, type PairItemData } from './kit';
