/**
 * The "the vendor SDK reads back what the app wrote": each first resource written through the app's engine
 * (the very calls its screens make: resources.create/update/updateSingle, llmAccess.set) and read back by the
 * vendor's generated SDK (`@iblai/iblai-api`) on the same sandbox, as a tenant's own script would read it.
 *
 * Where the SDK has no read for a thing it says so here:
 * - branding: the SDK reads each image (logo, dark-mode logo, favicon, thumbnail); it has nothing else to read.
 * - use-default-llm-key / use-free-trial: the SDK has no read of either switch's own path (both are POST only);
 *   their state is read through `default-llm-key-usage` and `free-trial`, which the SDK does have.
 * - mentor-llms: read-only on the platform (the app writes nothing there); the SDK's list is compared with the
 *   app's so both name the same providers.
 */
import { AiAccountService, AiMentorService, CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { toDataUrl } from '../../src/shared/resources/images';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: Sandbox;
/**
 * The tenant's user path. The SDK's generated types leave `userId` out of these calls' parameters though the calls
 * put it in the path (`{org}/users/{user_id}/…`), hence the cast.
 */
const userPath = <T>() => ({ org: server.org, userId: server.user }) as unknown as T;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});

describe('the vendor SDK reads back what the app wrote', () => {
  it('LTI keys and tools: created and changed through the engine, read by the SDK', async () => {
    const c = await connect(server);
    const key = await c.engine.invoke('resources.create', { kind: 'lti-keys', values: { name: 'Canvas signing' } });
    const keyId = Number(key.record.id);
    await c.engine.invoke('resources.update', {
      kind: 'lti-keys',
      id: String(keyId),
      values: { name: 'Canvas signing 2027' },
    });
    const tool = await c.engine.invoke('resources.create', {
      kind: 'lti-tools',
      values: {
        title: 'Canvas courses',
        issuer: 'https://canvas.example.edu',
        client_id: 'canvas-1',
        auth_login_url: 'https://canvas.example.edu/login',
        auth_token_url: 'https://canvas.example.edu/token',
        tool_key: keyId,
        deployment_ids: ['d-1'],
        launch_gate: { allow_all_within_org: true },
      },
    });

    const keys = await CoreService.coreLti1P3ProviderLtiKeysList({ platformKey: server.org });
    expect(keys.map((k) => k.name)).toContain('Canvas signing 2027');
    const readKey = await CoreService.coreLti1P3ProviderLtiKeysRetrieve({ id: String(keyId), platformKey: server.org });
    expect(readKey).toMatchObject({ id: keyId, name: 'Canvas signing 2027' });
    const readTool = await CoreService.coreLti1P3ProviderLtiToolsRetrieve({
      id: String(tool.record.id),
      platformKey: server.org,
    });
    expect(readTool).toMatchObject({
      title: 'Canvas courses',
      client_id: 'canvas-1',
      tool_key: keyId,
      deployment_ids: ['d-1'],
      launch_gate: { allow_all_within_org: true },
    });
  });

  it('branding, site config and org metadata: saved through the engine, read by the SDK', async () => {
    const c = await connect(server);
    const logo = toDataUrl('image/png', PNG);
    await c.engine.invoke('resources.updateSingle', { kind: 'branding', values: { logo, thumbnail: logo } });
    expect(await CoreService.coreOrgsLogoRetrieve({ org: server.org })).toEqual({ file: logo });
    expect(await CoreService.coreOrgsThumbnailRetrieve({ org: server.org })).toEqual({ file: logo });
    // Not written: the SDK reads nothing there.
    expect(await CoreService.coreOrgsFaviconRetrieve({ org: server.org })).toEqual({});

    await c.engine.invoke('resources.updateSingle', {
      kind: 'site-config',
      values: { field_key: 'welcome_banner', value: { text: 'Welcome', show: true } },
    });
    const site = await CoreService.corePlatformConfigSiteRetrieve({ key: server.org });
    expect(site).toMatchObject({ welcome_banner: { text: 'Welcome', show: true } });
  });

  it('integration keys: created through the engine, the SDK reads them masked, never in clear', async () => {
    const c = await connect(server);
    await c.engine.invoke('resources.create', {
      kind: 'integration-credentials',
      values: {
        name: 'google-drive',
        value: {
          type: 'service_account',
          project_id: 'p-1',
          private_key: 'PRIVATE-1a2b3c4d5e6f',
          client_email: 'a@b.c',
        },
      },
    });
    const masked = await AiAccountService.aiAccountOrgsMaskedIntegrationCredentialList({
      org: server.org,
      name: 'google-drive',
    });
    expect(masked).toEqual([
      expect.objectContaining({
        name: 'google-drive',
        // Every value masked on the platform's read, the last four of the key kept.
        value: { type: '***********ount', project_id: '****', private_key: '************5e6f', client_email: '*@b.c' },
      }),
    ]);
  });

  it("the tenant's models, the LLMs mentors can use, the default key and the free trial: the SDK reads what the engine set", async () => {
    const c = await connect(server);
    await c.engine.invoke('resources.create', {
      kind: 'tenant-llms',
      values: { llm_provider: 'anthropic', llm_name: 'claude-sonnet' },
    });
    const assigned =
      await AiMentorService.aiMentorOrgsUsersSettingsTenantLlmList(
        userPath<Parameters<typeof AiMentorService.aiMentorOrgsUsersSettingsTenantLlmList>[0]>(),
      );
    expect(assigned).toEqual([expect.objectContaining({ llm_provider: 'anthropic', llm_name: 'claude-sonnet' })]);

    const appLlms = await c.engine.invoke('resources.list', { kind: 'mentor-llms', refresh: true });
    const sdkLlms =
      await AiMentorService.aiMentorOrgsUsersMentorLlmsList(
        userPath<Parameters<typeof AiMentorService.aiMentorOrgsUsersMentorLlmsList>[0]>(),
      );
    expect(sdkLlms.map((llm) => llm.name)).toEqual(appLlms.records.map((record) => record.name));

    await c.engine.invoke('llmAccess.set', { defaultKey: true, freeTrial: true });
    expect(
      await AiAccountService.aiAccountOrgsUsersDefaultLlmKeyUsageRetrieve(
        userPath<Parameters<typeof AiAccountService.aiAccountOrgsUsersDefaultLlmKeyUsageRetrieve>[0]>(),
      ),
    ).toMatchObject({ use_main_credentials: true });
    expect(
      await AiAccountService.aiAccountOrgsUsersFreeTrialRetrieve({ org: server.org, userId: server.user }),
    ).toEqual({ is_in_free_trial: true });
    await c.engine.invoke('llmAccess.set', { freeTrial: false });
    expect(
      await AiAccountService.aiAccountOrgsUsersFreeTrialRetrieve({ org: server.org, userId: server.user }),
    ).toEqual({ is_in_free_trial: false });
  });
});
