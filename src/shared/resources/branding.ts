import type { OperationRef, ResourceDeclaration } from './kit';

const image = <Slug extends string>(slug: Slug) => ({
  read: { method: 'get' as const, path: `/api/core/orgs/{org}/${slug}/` as const } satisfies OperationRef,
  write: { method: 'post' as const, path: `/api/core/orgs/{org}/${slug}/create/` as const } satisfies OperationRef,
  answerField: 'file',
  bodyField: 'file',
});

/** The tenant's branding images: each read and uploaded by its own calls. */
export const branding = {
  kind: 'branding',
  label: 'Branding',
  singular: 'branding',
  plural: 'branding',
  area: 'tenant-settings',
  group: 'Organisation',
  description: "The tenant's logo, dark-mode logo, favicon and thumbnail.",
  idField: 'logo',
  single: true,
  operations: {},
  envelope: 'none',
  columns: [],
  search: [],
  fields: [
    { name: 'logo', label: 'Logo', input: 'image', own: image('logo') },
    {
      name: 'dark_mode_logo',
      label: 'Dark-mode logo',
      input: 'image',
      description: 'Shown on dark backgrounds.',
      own: image('dark-mode-logo'),
      darkPreview: true,
    },
    { name: 'favicon', label: 'Favicon', input: 'image', description: 'The browser tab icon.', own: image('favicon') },
    {
      name: 'thumbnail',
      label: 'Thumbnail',
      input: 'image',
      description: 'Shown where the tenant is listed.',
      own: image('thumbnail'),
    },
  ],
} as const satisfies ResourceDeclaration;
