import { badRequest } from './errors';

/** Reads a positive integer query parameter; a malformed one is a 400, as DRF answers. */
export function intParam(query: URLSearchParams, name: string, fallback: number, max = 1000): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest(`Invalid query parameters: ${name} must be a positive integer`);
  return Math.min(Number(raw), max);
}

export interface PageWindow {
  page: number;
  pageSize: number;
  offset: number;
}

export function pageWindow(query: URLSearchParams, defaultSize = 20, maxSize = 1000): PageWindow {
  const page = Math.max(1, intParam(query, 'page', 1, 1_000_000));
  const pageSize = Math.max(1, intParam(query, 'page_size', defaultSize, maxSize));
  return { page, pageSize, offset: (page - 1) * pageSize };
}

function withParam(url: URL, name: string, value: number): string {
  const next = new URL(url);
  next.searchParams.set(name, String(value));
  return next.toString();
}

/** DRF `{count, next, previous, results}`; a page past the end is DRF's 404 'Invalid page.'. */
export function drfPage<T>(url: URL, window: PageWindow, count: number, results: T[]) {
  const last = Math.max(1, Math.ceil(count / window.pageSize));
  return {
    count,
    next: window.page < last ? withParam(url, 'page', window.page + 1) : null,
    previous: window.page > 1 ? withParam(url, 'page', window.page - 1) : null,
    results,
  };
}

/** DRF limit/offset `{count, next, previous, results}`. */
export function limitOffsetPage<T>(url: URL, limit: number, offset: number, count: number, results: T[]) {
  const next = new URL(url);
  next.searchParams.set('limit', String(limit));
  next.searchParams.set('offset', String(offset + limit));
  const previous = new URL(url);
  previous.searchParams.set('limit', String(limit));
  previous.searchParams.set('offset', String(Math.max(0, offset - limit)));
  return {
    count,
    next: offset + limit < count ? next.toString() : null,
    previous: offset > 0 ? previous.toString() : null,
    results,
  };
}

/** Catalog `{count, next_page, previous_page, results}`. */
export function catalogPage<T>(url: URL, window: PageWindow, count: number, results: T[]) {
  const last = Math.max(1, Math.ceil(count / window.pageSize));
  return {
    count,
    next_page: window.page < last ? withParam(url, 'page', window.page + 1) : null,
    previous_page: window.page > 1 ? withParam(url, 'page', window.page - 1) : null,
    results,
  };
}

/** Legacy analytics `{data, pagination: {totalItems, currentPage, perPage, totalPages}}` driven by page/length. */
export function legacyPage<T>(query: URLSearchParams, total: number, slice: (offset: number, length: number) => T[]) {
  const perPage = Math.max(1, intParam(query, 'length', 10, 10_000));
  const currentPage = Math.max(1, intParam(query, 'page', 1, 1_000_000));
  return {
    data: slice((currentPage - 1) * perPage, perPage),
    pagination: { totalItems: total, currentPage, perPage, totalPages: Math.ceil(total / perPage) },
  };
}
