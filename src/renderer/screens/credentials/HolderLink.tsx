/**
 * A badge holder named as the person's page is (`#/people-and-access/users/<id>`, as licence seat holders are): the
 * platform's assertion names its recipient by username and email only, so the person is looked up in this tenant's
 * directory (the engine's saved list of its users, one exact match, as member lists do); someone it does not list
 * stays a plain name.
 */
import { Anchor, Text } from '@mantine/core';
import { useKnownPerson } from '../../resources/Members';
import { personNaming } from '../../resources/person-name';
import { useActiveTenant } from '../../tenants/tenantContext';

export function HolderLink({ username }: { username: string }) {
  const { id: profileId } = useActiveTenant();
  const person = useKnownPerson(profileId ?? '', { username });
  const { name } = personNaming(person, { username });
  if (!person || person.user_id === undefined || person.user_id === null) return <Text size="sm">{username}</Text>;
  return (
    <Anchor href={`#/people-and-access/users/${String(person.user_id)}`} size="sm" title={username}>
      {name}
    </Anchor>
  );
}
