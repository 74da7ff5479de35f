/** How the kit's lists and details show a record's values: words, not JSON, wherever the value allows. */
import { describe, expect, it } from 'vitest';
import { readableValue, shownValue } from '../../src/renderer/resources/readable';
import { RESOURCES } from '../../src/shared/resources';

describe('readableValue', () => {
  it('lists words and numbers, names nested records, and keeps anything else as JSON', () => {
    expect(readableValue(['Ibl.Core/Roles/read', 'Ibl.Core/Policies/read'])).toEqual({
      text: 'Ibl.Core/Roles/read, Ibl.Core/Policies/read',
      structured: false,
    });
    expect(readableValue({ id: 3, name: 'Mentor editors' })).toEqual({ text: 'Mentor editors', structured: false });
    expect(readableValue([{ username: 'ada' }, { name: 'Staff', id: 1 }]).text).toBe('ada, Staff');
    expect(readableValue([])).toEqual({ text: 'None', structured: false });
    expect(readableValue(null).text).toBe('—');
    expect(readableValue(0).text).toBe('0');
    expect(readableValue(false).text).toBe('false');
    // Nothing is hidden: a record without a name, or a list mixing kinds, stays whole.
    expect(readableValue({ allowed_keys: [], allow_all_within_org: true })).toEqual({
      text: '{\n  "allowed_keys": [],\n  "allow_all_within_org": true\n}',
      structured: true,
    });
    expect(readableValue([{ id: 1 }, 'x']).structured).toBe(true);
  });
});

describe('shownValue', () => {
  it('shows a select field’s value as its option’s label, and anything else as it is', () => {
    const servers = RESOURCES['mcp-servers'];
    expect(shownValue(servers, 'transport', 'streamable_http')).toBe('Streamable HTTP');
    expect(shownValue(servers, 'auth_type', 'oauth2')).toBe('OAuth 2');
    // A value the declaration does not offer (the platform's own, newer) is shown as the platform sent it.
    expect(shownValue(servers, 'transport', 'grpc')).toBe('grpc');
    expect(shownValue(servers, 'name', 'Search')).toBe('Search');
    expect(shownValue(RESOURCES['call-configurations'], 'tts_provider', 'elevenlabs')).toBe('ElevenLabs');
  });
});
