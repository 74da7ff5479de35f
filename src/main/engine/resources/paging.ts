/**
 * A DRF-paged list read into the cache page by page: on a first read the first page is stored (and answers the screen
 * that waits), each later page is appended as it arrives and announced, so a long list is shown before its last page.
 * A write to the kind meanwhile stops the storing (the next refresh reads it whole), as a whole-list read does.
 */
import type { ResourceDeclaration } from '../../../shared/resources';
import type { CallOptions } from '../platform';
import type { ResourceApi } from './api';
import type { ResourceCache } from './cache';

export interface PagedRead {
  /** Settles when the first page is stored (or could not be read). */
  first: Promise<void>;
  /** Settles when the last page is stored; rejects with why the rest could not be read. */
  rest: Promise<void>;
}

export function readPages(
  api: ResourceApi,
  cache: ResourceCache,
  profileId: string,
  declaration: ResourceDeclaration,
  options: CallOptions & {
    startedAt: string;
    /** False once the kind was written to since the read started: nothing more is stored. */
    current(): boolean;
    /** A later page was stored. */
    grew(): void;
    /**
     * Store each page as it comes (a list never read before: something to show at once). Otherwise the cached list
     * stays whole until the last page replaces it, so a refresh never shows a list that shrank for a moment.
     */
    progressive: boolean;
  },
): PagedRead {
  const { startedAt, current, grew, progressive, ...callOptions } = options;
  let stored = 0;
  let firstDone!: () => void;
  let firstFailed!: (error: unknown) => void;
  const first = new Promise<void>((resolve, reject) => {
    firstDone = resolve;
    firstFailed = reject;
  });
  const rest = api
    .list(declaration, {
      ...callOptions,
      onPage: (records, page) => {
        if (!progressive || !current()) return;
        if (page.index === 0) cache.replace(profileId, declaration, records, startedAt);
        else {
          cache.append(profileId, declaration, records, stored);
          grew();
        }
        stored += records.length;
        if (page.index === 0) firstDone();
      },
    })
    .then(
      (records) => {
        if (!progressive && current()) cache.replace(profileId, declaration, records, startedAt);
        firstDone();
      },
      (error: unknown) => {
        firstFailed(error);
        throw error;
      },
    );
  // The first page's failure is the caller's to handle; the rest's, whoever waits for it.
  rest.catch(() => undefined);
  return { first, rest };
}
