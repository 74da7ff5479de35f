import type { ResourceRecord } from '../../shared/contract';

/**
 * How a person is named where a record holds their username (a department member, a memory): their full name when
 * the directory knows one, with the username beside it; else the username, else their email, else their number.
 */
export function personNaming(
  known: ResourceRecord | undefined,
  held: { username?: unknown; email?: unknown; user_id?: unknown },
): { name: string; username: string | null } {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const username = text(held.username) ?? text(known?.username);
  const name = text(known?.name);
  if (name) return { name, username: username && username !== name ? username : null };
  const email = text(held.email) ?? text(known?.email);
  const number = held.user_id ?? known?.user_id;
  return {
    name: username ?? email ?? (number === undefined || number === null ? 'Someone' : `User ${String(number)}`),
    username: null,
  };
}
