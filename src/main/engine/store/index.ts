/** SQLite: the engine's one database (WAL, numbered migrations) and its checkpoints off the engine's thread. */
export { openDatabase, schemaVersion, NewerDatabaseError, type Db, type OpenDatabaseOptions } from './database';
export { startCheckpointer, type Checkpointer } from './checkpointer';
export { ListFreshness, CHANGED_ON_TENANT, type ListMeta } from './list-freshness';
export { INDEXED_SEARCH_MOST, trigramMatch } from './trigram';
export { AnswerCache, canonical, FRESH_FOR_MS, type AnswerChanged, type Cached } from './answer-cache';
