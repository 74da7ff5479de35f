/**
 * The platform's mentor endpoints under `/api/ai-mentor/orgs/{org}/users/{user_id}/`, answers validated. Mentor
 * objects come from `{name}/` and the list; description and visibility from `mentors/{mentor}/settings/`.
 */
import type { MentorVisibility } from '../../../shared/contract';
import { toMultipart, type CallOptions, type PlatformClient } from '../platform';
import type { Log } from '../log';
import type { Scope } from './resolve';
import { ApiMentor, ApiMentorPage, ApiMentorSettings, parseAnswer } from './shapes';

/** Per-call request options: a screen waiting on a refresh retries less than a background job. */
export type { CallOptions } from '../platform';

const PAGE_SIZE = 100;
/** A guard against a server whose `next` never ends. */
const MAX_PAGES = 1000;

export class MentorApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
    private readonly log: Log,
  ) {}

  private get user() {
    return { org: this.scope.org, user_id: this.scope.username };
  }

  /** Every page of the DRF list, in the API's order. */
  async list(options: CallOptions = {}): Promise<ApiMentor[]> {
    const all: ApiMentor[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
        params: { path: this.user, query: { page, page_size: PAGE_SIZE } },
        ...options,
      });
      const { results, next, count } = parseAnswer(ApiMentorPage, data, 'the mentor list', this.log);
      all.push(...results);
      if (!next || results.length === 0 || all.length >= count) break;
    }
    return all;
  }

  /** GET `{name}/`: the platform finds a mentor by unique id, name or slug. */
  async get(ref: string, options: CallOptions = {}): Promise<ApiMentor> {
    const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/', {
      params: { path: { ...this.user, name: ref } },
      ...options,
    });
    return parseAnswer(ApiMentor, data, `mentor '${ref}'`, this.log);
  }

  async settings(ref: string, options: CallOptions = {}): Promise<ApiMentorSettings> {
    const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/settings/', {
      params: { path: { ...this.user, mentor: ref } },
      ...options,
    });
    return parseAnswer(ApiMentorSettings, data, `the settings of mentor '${ref}'`, this.log);
  }

  /** POST `users/{user_id}/` with a `MentorCreate`; never retried after a lost answer (it may have been applied). */
  async create(name: string): Promise<ApiMentor> {
    const { data } = await this.client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
      params: { path: this.user },
      body: { name },
    });
    return parseAnswer(ApiMentor, data, 'the new mentor', this.log);
  }

  /** PATCH `{name}/` with the new name. */
  async rename(uniqueId: string, name: string): Promise<void> {
    await this.client.api.PATCH('/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/', {
      params: { path: { ...this.user, name: uniqueId } },
      body: { name },
    });
  }

  /** PUT `mentors/{mentor}/settings/` as multipart (`MentorSettingsRequest`); answers the full `MentorSettings`. */
  async putSettings(
    uniqueId: string,
    fields: { description?: string; visibility?: MentorVisibility },
  ): Promise<ApiMentorSettings> {
    const { data } = await this.client.api.PUT('/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/settings/', {
      params: { path: { ...this.user, mentor: uniqueId } },
      body: { mentor_description: fields.description, mentor_visibility: fields.visibility },
      bodySerializer: toMultipart,
    });
    return parseAnswer(ApiMentorSettings, data, `the settings of mentor '${uniqueId}'`, this.log);
  }

  /** PUT `mentors/{mentor}/settings/` with the template a new mentor is made from and its visibility. */
  async putOrigin(
    uniqueId: string,
    fields: { template?: string; visibility?: MentorVisibility },
  ): Promise<ApiMentorSettings> {
    const { data } = await this.client.api.PUT('/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/settings/', {
      params: { path: { ...this.user, mentor: uniqueId } },
      body: { template_name: fields.template, mentor_visibility: fields.visibility },
      bodySerializer: toMultipart,
    });
    return parseAnswer(ApiMentorSettings, data, `the settings of mentor '${uniqueId}'`, this.log);
  }

  /** DELETE `{name}/`: the platform soft-deletes the mentor. */
  async delete(uniqueId: string): Promise<void> {
    await this.client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/{name}/', {
      params: { path: { ...this.user, name: uniqueId } },
      parseAs: 'text',
    });
  }
}
