/**
 * Models and keys in browser mode, on a real engine and sandbox: an LLM provider key created from the platform's
 * own credential schema with a padded paste (trimmed, and said so at the field), listed masked, replaced without
 * ever being shown; the default key and free trial switched from their card. The key is never in the page or in
 * any answer the bridge sent. A model assigned to the tenant from its list, read back by the vendor SDK.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { TRIMMED_NOTE } from '../../src/shared/resources';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
const framesReceived: string[] = [];
const SECRET = 'sk-e2e-Jd83hQpZ01xVb7Lw';
const REPLACEMENT = 'sk-e2e-second-Mn41';

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
  app.page.on('websocket', (socket) =>
    socket.on('framereceived', (frame) => framesReceived.push(String(frame.payload))),
  );
  await app.open('#/mentors');
});

afterAll(async () => {
  await app?.close();
});

describe('Models and keys', () => {
  it('creates an LLM provider key from a padded paste: trimmed and said at the field, then listed masked', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'Models and keys' }).click();
    await visible(page.getByRole('heading', { name: 'Models and keys', level: 1 }));
    const keys = page.getByRole('region', { name: 'LLM provider keys' });
    await visible(keys.getByText('No LLM provider keys yet.'));

    await keys.getByRole('button', { name: 'New LLM provider key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New LLM provider key' });
    await visible(dialog);
    // An empty choice says what to do rather than showing a blank box.
    expect(await dialog.getByLabel('Provider').getAttribute('placeholder')).toBe('Choose one');
    // The providers and their fields are the platform's: Azure OpenAI asks for three.
    await dialog.getByLabel('Provider').click();
    await page.getByRole('option', { name: 'Azure OpenAI' }).click();
    await visible(dialog.getByLabel('Endpoint'));
    await visible(dialog.getByLabel('API version'));
    await dialog.getByLabel('Provider').click();
    await page.getByRole('option', { name: 'OpenAI', exact: true }).click();
    expect(await dialog.getByLabel('Endpoint').count()).toBe(0);

    const key = dialog.getByLabel('Key', { exact: true });
    await key.fill(`  ${SECRET}\n `);
    await visible(dialog.getByTestId('trimmed-note'));
    expect(await dialog.getByTestId('trimmed-note').innerText()).toBe(TRIMMED_NOTE);
    expect(await key.inputValue()).toBe(SECRET);
    await dialog.getByRole('button', { name: 'Create LLM provider key' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const table = keys.getByTestId('resource-table');
    await visible(table.getByRole('button', { name: 'openai', exact: true }));
    await visible(table.getByText('key: ************b7Lw'));
    // The platform stored it trimmed: its own masked view ends with the key's last characters.
    const stored = await call(server, 'GET', `/api/ai-account/orgs/${server.org}/masked-llm-credential/?name=openai`);
    expect(stored.body).toEqual([expect.objectContaining({ value: { key: '************b7Lw' } })]);
  });

  it('replaces a stored key without ever showing it, and the details show it masked', async () => {
    const { page } = app;
    const keys = page.getByRole('region', { name: 'LLM provider keys' });
    await keys.getByRole('button', { name: 'Edit openai' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit LLM provider key "openai"' });
    await visible(dialog.getByTestId('stored-secret'));
    expect(await dialog.getByTestId('stored-secret').innerText()).toBe('key: ************b7Lw');
    await dialog.getByRole('button', { name: 'Replace' }).click();
    const key = dialog.getByLabel('Key', { exact: true });
    expect(await key.inputValue()).toBe('');
    await key.fill(REPLACEMENT);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(keys.getByText('key: ************Mn41'));

    await keys.getByRole('button', { name: 'openai', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'LLM provider key openai' });
    await visible(drawer);
    await page.keyboard.press('Escape');

    const html = await page.content();
    for (const secret of [SECRET, REPLACEMENT]) {
      expect(html).not.toContain(secret);
      expect(framesReceived.filter((frame) => frame.includes(secret))).toEqual([]);
    }
  });

  it('switches the default key and the free trial from their card, and shows the key’s usage', async () => {
    const { page } = app;
    const defaultKey = page.getByRole('switch', { name: "Use the platform's default LLM key" });
    await visible(defaultKey);
    expect(await defaultKey.isChecked()).toBe(false);
    await visible(page.getByTestId('default-key-usage').getByText('0 of 10,000 used'));
    // From the keyboard: the switch takes Space.
    await defaultKey.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => defaultKey.isChecked()).toBe(true);
    // The switches wait for the platform's answer before taking another change.
    await expect.poll(() => defaultKey.isEnabled()).toBe(true);
    const usage = await call(
      server,
      'GET',
      `/api/ai-account/orgs/${server.org}/users/${server.user}/default-llm-key-usage`,
    );
    expect(usage.body).toMatchObject({ use_main_credentials: true });

    await page.getByRole('switch', { name: 'Free trial' }).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('free-trial-state').innerText()).toBe('In free trial');
    // The platform's word on the trial is read beside the switch's name, inside its label.
    expect(
      await page
        .locator('label')
        .filter({ has: page.getByTestId('free-trial-state') })
        .innerText(),
    ).toMatch(/^Free trial\s+In free trial\n/);
    const trial = await call(server, 'GET', `/api/ai-account/orgs/${server.org}/users/${server.user}/free-trial`);
    expect(trial.body).toEqual({ is_in_free_trial: true });

    // The tenant's models and the LLMs its mentors can use are the kit's lists on the same screen.
    await visible(page.getByRole('region', { name: 'Available LLMs' }).getByRole('button', { name: 'anthropic' }));
  });

  it('assigns a model to the tenant from its list, and the vendor SDK reads the assignment back', async () => {
    const { page } = app;
    await app.open('#/models-and-keys');
    const models = page.getByRole('region', { name: 'Tenant models' });
    await visible(models.getByRole('button', { name: 'New tenant model' }).first());
    await models.getByRole('button', { name: 'New tenant model' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New tenant model' });
    await visible(dialog);
    await dialog.getByLabel('Provider').fill('anthropic');
    await dialog.getByLabel('Model').fill('claude-sonnet');
    await dialog.getByRole('button', { name: 'Create tenant model' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(models.getByTestId('resource-table').getByText('claude-sonnet'));

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const assigned = await AiMentorService.aiMentorOrgsUsersSettingsTenantLlmList(
      // The SDK's types leave out the userId its path takes.
      { org: server.org, userId: server.user } as Parameters<
        typeof AiMentorService.aiMentorOrgsUsersSettingsTenantLlmList
      >[0],
    );
    expect(assigned).toEqual([expect.objectContaining({ llm_provider: 'anthropic', llm_name: 'claude-sonnet' })]);
  });

  it('keeps the line breaks of a pasted service-account key (Tenant settings → Integration keys)', async () => {
    const { page } = app;
    await app.open('#/tenant-settings/integration-credentials');
    await page.getByRole('button', { name: 'New integration key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration key' });
    await dialog.getByLabel('Service').click();
    await page.getByRole('option', { name: 'Google Drive' }).click();
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
    const privateKey = dialog.getByLabel('Private key');
    await privateKey.fill(`\n${pem}\n\n`);
    await visible(dialog.getByTestId('trimmed-note'));
    expect(await privateKey.inputValue()).toBe(pem);
    await dialog.getByLabel('Type').fill('service_account');
    await dialog.getByRole('button', { name: 'Create integration key' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByTestId('resource-table').getByRole('button', { name: 'google-drive', exact: true }));
    expect(await page.content()).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
  });
});
