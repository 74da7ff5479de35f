/**
 * The platform's sharing and mentor-from-mentor endpoints under `/api/ai-mentor/orgs/{org}/users/{user_id}/`, answers
 * validated: a mentor's sharable link (no trailing slash in the spec) and its public check, fork, the template
 * mentors and the create-mentor wizard.
 */
import { z } from 'zod';
import type { PlatformClient } from '../platform';
import type { Log } from '../log';
import type { Scope } from './resolve';
import { ApiMentor, parseAnswer } from './shapes';

const text = z.string().nullish();

/** `ShareableMentorLink`. */
export const ApiSharableLink = z.object({
  token: z.string(),
  enabled: z.boolean().nullish(),
  inserted_at: text,
  updated_at: text,
});
export type ApiSharableLink = z.infer<typeof ApiSharableLink>;

/** `TemplateMentor`; the spec's example names the platform `platform`, its schema `platform_key`. */
export const ApiTemplateMentor = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: text,
  unique_id: text,
  description: text,
  system_prompt: text,
  platform_key: text,
  platform: text,
});
export type ApiTemplateMentor = z.infer<typeof ApiTemplateMentor>;

/** The spec's schema says one `TemplateMentor`; its example ("List of available template mentors") is a list. */
const ApiTemplates = z.union([z.array(ApiTemplateMentor), ApiTemplateMentor.transform((one) => [one])]);

const SHARABLE = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/sharable-link' as const;

export class SharingApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
    private readonly log: Log,
  ) {}

  private path(mentor: string) {
    return { org: this.scope.org, user_id: this.scope.username, mentor };
  }

  async link(mentor: string): Promise<ApiSharableLink> {
    const { data } = await this.client.api.GET(SHARABLE, { params: { path: this.path(mentor) } });
    return parseAnswer(ApiSharableLink, data, `the sharable link of mentor '${mentor}'`, this.log);
  }

  /** POST: makes the link (on). */
  async createLink(mentor: string): Promise<ApiSharableLink> {
    const { data } = await this.client.api.POST(SHARABLE, {
      params: { path: this.path(mentor) },
      body: { enabled: true },
    });
    return parseAnswer(ApiSharableLink, data, `the new sharable link of mentor '${mentor}'`, this.log);
  }

  /** PUT: turns the link on or off. */
  async setLinkEnabled(mentor: string, enabled: boolean): Promise<ApiSharableLink> {
    const { data } = await this.client.api.PUT(SHARABLE, {
      params: { path: this.path(mentor) },
      body: { enabled },
    });
    return parseAnswer(ApiSharableLink, data, `the sharable link of mentor '${mentor}'`, this.log);
  }

  async revokeLink(mentor: string): Promise<void> {
    await this.client.api.DELETE(SHARABLE, { params: { path: this.path(mentor) }, parseAs: 'text' });
  }

  /** `public-sharable-link/`: what the platform tells anyone about the link (the spec declares no credentials). */
  async publicLink(mentor: string): Promise<ApiSharableLink> {
    const { data } = await this.client.api.GET(
      '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/public-sharable-link/',
      { params: { path: this.path(mentor) } },
    );
    return parseAnswer(ApiSharableLink, data, `the public sharable link of mentor '${mentor}'`, this.log);
  }

  /** `fork/` into the same tenant (`destination_platform_key` is the connection's org). */
  async fork(mentor: string, name: string, cloneDocuments: boolean): Promise<ApiMentor> {
    const { data } = await this.client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/fork/', {
      params: { path: this.path(mentor) },
      body: { new_mentor_name: name, destination_platform_key: this.scope.org, clone_documents: cloneDocuments },
    });
    return parseAnswer(ApiMentor, data, `the fork of mentor '${mentor}'`, this.log);
  }

  async templates(): Promise<ApiTemplateMentor[]> {
    const { data } = await this.client.api.GET(
      '/api/ai-mentor/orgs/{org}/users/{user_id}/available-template-mentors/',
      {
        params: { path: { org: this.scope.org, user_id: this.scope.username } },
      },
    );
    return parseAnswer(ApiTemplates, data, 'the template mentors', this.log);
  }

  async createWithWizard(name: string, description: string): Promise<ApiMentor> {
    const { data } = await this.client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/create-mentor-wizard/', {
      params: { path: { org: this.scope.org, user_id: this.scope.username } },
      body: { name, description },
    });
    return parseAnswer(ApiMentor, data, 'the new mentor', this.log);
  }
}
