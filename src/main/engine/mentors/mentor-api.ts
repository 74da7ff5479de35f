/**
 * The platform's mentor endpoints under `/api/ai-mentor/orgs/{org}/users/{user_id}/`, answers validated. Mentor
 * objects come from `{name}/` and the list; description and visibility from `mentors/{mentor}/settings/`.
 */
import type { MentorVisibility } from '../../../shared/contract';
import { toMultipart, type PlatformClient, type PlatformRequestOptions } from '../platform';
import type { Log } from '../log';
import { mentorsPath, type Scope } from './resolve';
import { ApiMentor, ApiMentorPage, ApiMentorSettings, parseAnswer } from './shapes';

/** Per-call request options: a screen waiting on a refresh retries less than a background job. */
export type CallOptions = Pick<PlatformRequestOptions, 'signal' | 'maxAttempts' | 'timeoutMs'>;

const PAGE_SIZE = 100;
/** A guard against a server whose `next` never ends. */
const MAX_PAGES = 1000;

export class MentorApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
    private readonly log: Log,
  ) {}

  private path(ref?: string): string {
    return ref === undefined ? mentorsPath(this.scope) : `${mentorsPath(this.scope)}${encodeURIComponent(ref)}/`;
  }

  private settingsPath(ref: string): string {
    return `${mentorsPath(this.scope)}mentors/${encodeURIComponent(ref)}/settings/`;
  }

  /** Every page of the DRF list, in the API's order. */
  async list(options: CallOptions = {}): Promise<ApiMentor[]> {
    const all: ApiMentor[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await this.client.request(this.path(), { ...options, query: { page, page_size: PAGE_SIZE } });
      const { results, next, count } = parseAnswer(ApiMentorPage, answer, 'the mentor list', this.log);
      all.push(...results);
      if (!next || results.length === 0 || all.length >= count) break;
    }
    return all;
  }

  async get(ref: string, options: CallOptions = {}): Promise<ApiMentor> {
    return parseAnswer(ApiMentor, await this.client.request(this.path(ref), options), `mentor '${ref}'`, this.log);
  }

  async settings(ref: string, options: CallOptions = {}): Promise<ApiMentorSettings> {
    const answer = await this.client.request(this.settingsPath(ref), options);
    return parseAnswer(ApiMentorSettings, answer, `the settings of mentor '${ref}'`, this.log);
  }

  /** POST `users/{user_id}/` with a `MentorCreate`; never retried after a network error (it may have been applied). */
  async create(name: string): Promise<ApiMentor> {
    const answer = await this.client.request(this.path(), { method: 'POST', json: { name } });
    return parseAnswer(ApiMentor, answer, 'the new mentor', this.log);
  }

  /** PATCH `{name}/` with the new name. */
  async rename(uniqueId: string, name: string): Promise<void> {
    await this.client.request(this.path(uniqueId), { method: 'PATCH', json: { name } });
  }

  /** PUT `mentors/{mentor}/settings/` as multipart (`MentorSettingsRequest`); answers the full `MentorSettings`. */
  async putSettings(
    uniqueId: string,
    fields: { description?: string; visibility?: MentorVisibility },
  ): Promise<ApiMentorSettings> {
    const form = toMultipart({ mentor_description: fields.description, mentor_visibility: fields.visibility });
    const answer = await this.client.request(this.settingsPath(uniqueId), { method: 'PUT', body: form });
    return parseAnswer(ApiMentorSettings, answer, `the settings of mentor '${uniqueId}'`, this.log);
  }

  /** DELETE `{name}/`: the platform soft-deletes the mentor. */
  async delete(uniqueId: string): Promise<void> {
    await this.client.request(this.path(uniqueId), { method: 'DELETE' });
  }
}
