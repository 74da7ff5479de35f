/**
 * A badge holder named as the person's page is (`#/people-and-access/users/<id>`, as licence seat holders are): the
 * platform's assertion names its recipient by username and email only, so the person's id is looked up in this
 * tenant's directory (the engine's saved list of its users); someone it does not list stays a plain name.
 */
import { Anchor, Text } from '@mantine/core';
import { useCall } from '../../queries/useCall';

export function HolderLink({ username }: { username: string }) {
  const found = useCall('resources.list', { kind: 'users', search: username, pageSize: 5 }, { enabled: !!username });
  const person = found.data?.records.find((record) => record.username === username);
  const name = person && typeof person.name === 'string' && person.name.trim() ? person.name : null;
  if (!person || person.user_id === undefined || person.user_id === null) return <Text size="sm">{username}</Text>;
  return (
    <Anchor href={`#/people-and-access/users/${String(person.user_id)}`} size="sm" title={username}>
      {name ?? username}
    </Anchor>
  );
}
