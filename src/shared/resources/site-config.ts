import type { ResourceDeclaration } from './kit';

/**
 * The platform's site settings: one object per tenant. The spec gives its save (POST) no body schema; its own words
 * name the body `field_key` and `value`, one setting a call, so that is the form.
 */
export const siteConfig = {
  kind: 'site-config',
  label: 'Site config',
  singular: 'site config',
  plural: 'site config',
  area: 'tenant-settings',
  group: 'Organisation',
  description: "The platform site's settings for this tenant.",
  idField: 'key',
  single: true,
  operations: {
    get: { method: 'get', path: '/api/core/platform/config/site/' },
    update: { method: 'post', path: '/api/core/platform/config/site/' },
  },
  envelope: 'none',
  tenant: { key: 'org' },
  columns: [],
  search: [],
  fields: [
    { name: 'field_key', label: 'Setting', input: 'text', description: 'The name of the setting to save.' },
    { name: 'value', label: 'Value', input: 'json', description: 'Its new value, as JSON ("text", 3, true, {…}).' },
  ],
} as const satisfies ResourceDeclaration;
