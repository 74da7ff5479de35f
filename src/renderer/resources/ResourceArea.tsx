import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  RESOURCE_AREAS,
  RESOURCES,
  type ResourceArea as Area,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../shared/resources';
import { WarningIcon } from '../components/icons';
import { navigateTo, useSubRoute } from '../shell/routes';
import { useActiveTenant } from '../tenants/tenantContext';
import { ResourceList } from './ResourceList';
import { SingleRecordCard } from './SingleRecordCard';

type Declared = ResourceDeclaration & { kind: ResourceKind };

/** The kinds of one navigation area, in declaration order. */
export function kindsOf(area: Area): Declared[] {
  return (Object.values(RESOURCES) as Declared[]).filter((declaration) => declaration.area === area);
}

/** A navigation area of the kit (`#/<area>/<kind>`): one tab per kind, each the kind's generic list. */
export function ResourceArea({ area }: { area: Area }) {
  const kinds = kindsOf(area);
  const [routed, routedId] = useSubRoute();
  const current = kinds.find((declaration) => declaration.kind === routed) ?? kinds[0]!;
  const tenant = useActiveTenant();

  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1} size="h2">
          {RESOURCE_AREAS[area]}
        </Title>
        <Text c="dimmed" size="sm">
          {tenant.profile ? (
            <>
              Settings of <strong>{tenant.profile.name}</strong> on the platform.
            </>
          ) : (
            'Settings of the active tenant on the platform.'
          )}
        </Text>
      </div>
      {!tenant.id && tenant.known && (
        <Alert color="yellow" icon={<WarningIcon />} title="No active tenant">
          Add a tenant in Settings → Tenants, or make one active from the top bar.
        </Alert>
      )}
      <Tabs value={current.kind} onChange={(kind) => kind && navigateTo(`#/${area}/${kind}`)} keepMounted={false}>
        <Tabs.List>
          {kinds.map((declaration) => (
            <Tabs.Tab key={declaration.kind} value={declaration.kind}>
              {declaration.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tenant.id &&
          kinds.map((declaration) => (
            <Tabs.Panel key={declaration.kind} value={declaration.kind} pt="md">
              {declaration.single ? (
                <SingleRecordCard
                  key={`${tenant.id}:${declaration.kind}`}
                  profileId={tenant.id!}
                  declaration={declaration}
                />
              ) : (
                <ResourceList
                  key={`${tenant.id}:${declaration.kind}`}
                  profileId={tenant.id!}
                  declaration={declaration}
                  openId={declaration.kind === routed ? routedId : undefined}
                  onOpen={(id) =>
                    navigateTo(
                      id === null
                        ? `#/${area}/${declaration.kind}`
                        : `#/${area}/${declaration.kind}/${encodeURIComponent(id)}`,
                    )
                  }
                />
              )}
            </Tabs.Panel>
          ))}
      </Tabs>
    </Stack>
  );
}
