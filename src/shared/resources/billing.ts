import type { ResourceDeclaration } from './kit';

/**
 * The tenant's subscription as the billing (card payment) calls expose it: read-only. The spec declares no answer
 * body for it, so the card shows what the platform answers, field by field.
 */
export const billing = {
  kind: 'billing',
  label: 'Billing',
  singular: 'billing status',
  plural: 'billing status',
  area: 'tenant-settings',
  group: 'Organisation',
  description: "The tenant's subscription, as the platform's billing reports it.",
  // The spec's billing paths (stripe/subscriptions, products, context, the callbacks) answer no credit balance;
  // credit-topup-callback only redirects after a payment.
  note: "Credits are not shown: none of the platform's billing calls reports a tenant's credit balance.",
  idField: 'id',
  single: true,
  operations: {
    get: { method: 'get', path: '/api/service/orgs/{org}/users/{user_id}/stripe/subscriptions/' },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [],
} as const satisfies ResourceDeclaration;
