import { Alert, List, Loader, Stack, Text } from '@mantine/core';
import {
  RESOURCES,
  countLine,
  declarationOf,
  pluralOf,
  referrersOf,
  type ResourceDeclaration,
} from '../../shared/resources';
import { WarningIcon } from '../components/icons';
import { formatDateTime } from '../lib/format';
import { useCall } from '../queries/useCall';
import type { Declared } from './naming';

const declarations = Object.values(RESOURCES) as ResourceDeclaration[];
const singularOf = (kind: string) => declarations.find((d) => d.kind === kind)?.singular ?? kind;

/**
 * In a delete's confirmation: the records of other kinds that refer to those deleted (an LTI key's tools), as the
 * saved lists have them, and a word when those lists are not fresh. A warning only: the platform decides.
 */
export function ReferrersNote({
  profileId,
  declaration,
  ids,
  nameOf,
}: {
  profileId: string;
  declaration: Declared;
  ids: string[];
  /** What people call a record being deleted, by its id. */
  nameOf(id: string): string;
}) {
  const related = referrersOf(declaration.kind, declarations).length > 0;
  const found = useCall('resources.referrers', { profileId, kind: declaration.kind, ids }, { enabled: related });
  if (!related) return null;
  if (found.isPending) return <Loader size="xs" aria-label="Looking for what refers to it" />;
  const referrers = found.data?.referrers ?? [];
  const unsure = found.data?.unsure ?? [];
  const counts = found.data?.counts ?? [];
  if (!referrers.length && !unsure.length && !counts.length) return null;
  const counted = counts.filter((c) => c.count !== 0 || !c.exact);
  return (
    <Stack gap="xs">
      {counts.length > 0 && (
        <Alert
          color={counted.length ? 'yellow' : 'gray'}
          variant="light"
          icon={<WarningIcon />}
          title={ids.length > 1 ? 'What they hold' : 'What it holds'}
          data-testid="referrer-counts"
        >
          <List size="sm" spacing={2}>
            {counts.map((c) => (
              <List.Item key={`${c.kind}.${c.refersTo}`}>
                {ids.length > 1 ? `“${nameOf(c.refersTo)}” has` : 'It has'} {countLine(c, declarations, formatDateTime)}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {(referrers.length > 0 || unsure.length > 0) && (
        <Alert
          color="yellow"
          variant="light"
          icon={<WarningIcon />}
          title={referrers.length ? 'Other records refer to this' : 'Other records may refer to this'}
          data-testid="referrers-note"
        >
          {referrers.length > 0 && (
            <List size="sm" spacing={2}>
              {referrers.map((r) => (
                <List.Item key={`${r.kind}.${r.id}.${r.refersTo}`}>
                  {singularOf(r.kind)} &ldquo;{r.name}&rdquo; uses {ids.length > 1 ? `“${nameOf(r.refersTo)}”` : 'it'}
                </List.Item>
              ))}
            </List>
          )}
          {unsure.map((u) => (
            <Text key={u.kind} size="xs" c="dimmed" mt={4}>
              {u.asOf === null
                ? `Others may refer to it: ${u.reason}.`
                : `Others may refer to it: the saved ${pluralOf(declarationOf(u.kind))} are from ${formatDateTime(u.asOf)}${u.error ? ` (${u.error})` : ', reading them again'}.`}
            </Text>
          ))}
          <Text size="xs" mt={4}>
            The platform decides whether it can go; what refers to it may stop working.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
