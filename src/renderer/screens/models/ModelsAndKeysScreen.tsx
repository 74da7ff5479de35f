import { Alert, Stack, Text, Title } from '@mantine/core';
import { WarningIcon } from '../../components/icons';
import { kindsOf } from '../../resources/ResourceArea';
import { ResourceList } from '../../resources/ResourceList';
import { navigateTo, useSubRoute } from '../../shell/routes';
import { useActiveTenant } from '../../tenants/tenantContext';
import { LlmAccessCard } from './LlmAccessCard';

/**
 * `#/models-and-keys[/<kind>[/<id>]]`: the default key and free trial, then the kit's lists of the area (the LLM
 * provider keys, the tenant's models, the LLMs mentors can use), one under the other.
 */
export function ModelsAndKeysScreen() {
  const tenant = useActiveTenant();
  const [routed, routedId] = useSubRoute();
  const kinds = kindsOf('models-and-keys');
  return (
    <Stack gap="xl" maw={1200}>
      <div>
        <Title order={1} size="h2">
          Models and keys
        </Title>
        <Text c="dimmed" size="sm">
          {tenant.profile ? (
            <>
              Which LLMs the mentors of <strong>{tenant.profile.name}</strong> use, and the keys they use them with.
            </>
          ) : (
            'Which LLMs the mentors of the active tenant use, and the keys they use them with.'
          )}
        </Text>
      </div>
      {!tenant.id && tenant.known && (
        <Alert color="yellow" icon={<WarningIcon />} title="No active tenant">
          Add a tenant in Settings → Tenants, or make one active from the top bar.
        </Alert>
      )}
      {tenant.id && (
        <>
          <LlmAccessCard key={tenant.id} profileId={tenant.id} />
          {kinds.map((declaration) => (
            <Stack key={`${tenant.id}:${declaration.kind}`} gap="xs" component="section" aria-label={declaration.label}>
              <Title order={2} size="h4" id={`section-${declaration.kind}`}>
                {declaration.label}
              </Title>
              <ResourceList
                profileId={tenant.id!}
                declaration={declaration}
                openId={declaration.kind === routed ? routedId : undefined}
                onOpen={(id) =>
                  navigateTo(
                    id === null
                      ? '#/models-and-keys'
                      : `#/models-and-keys/${declaration.kind}/${encodeURIComponent(id)}`,
                  )
                }
              />
            </Stack>
          ))}
        </>
      )}
    </Stack>
  );
}
