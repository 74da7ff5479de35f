import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { Fragment, type ComponentType, type ReactNode } from 'react';
import type { ResourceRecord } from '../../shared/contract';
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
import { groupsOf } from './naming';
import { ResourceList } from './ResourceList';
import { SingleRecordCard } from './SingleRecordCard';

type Declared = ResourceDeclaration & { kind: ResourceKind };

/** A kind's own page for one record, shown instead of its list while the route names a record (a person's page). */
export type RecordPage = ComponentType<{ profileId: string; id: string; onBack(): void }>;
/** What a kind's details show after the kit's fields and related lists (a course's metadata, a program's people). */
export type RecordExtra = ComponentType<{ profileId: string; record: ResourceRecord }>;

/** The kinds of one navigation area, in declaration order. */
export function kindsOf(area: Area): Declared[] {
  return (Object.values(RESOURCES) as Declared[]).filter((declaration) => declaration.area === area);
}

/** What the area holds, around the tenant's name. */
const AREA_SUBTITLE: Record<Area, readonly [string, string]> = {
  'tenant-settings': ['Settings of ', ' on the platform.'],
  'models-and-keys': ['Which LLMs the mentors of ', ' use, and the keys they use them with.'],
  'people-and-access': ['Who belongs where in ', ', and who may do what.'],
  'mentor-configuration': ['What the mentors of ', ' share: their tools, voice calls and categories.'],
  mentors: ['The mentors of ', '.'],
  licences: ['Seats that ', ' hands to people, and who asks for a course.'],
  catalogue: ['The courses, pathways and programs of ', ', and who is enrolled in them.'],
};

/**
 * A navigation area of the kit (`#/<area>/<kind>`): one tab per kind, each the kind's generic list or settings card.
 * The tabs stand in a column beside the panel, under their group's heading: an area of many kinds keeps one tidy
 * list at any width (a row of them wraps, or hides some behind a scroll, from about 1100 px down).
 */
/** A screen of the area's own beside its kinds (the access matrix): a tab after them, under its own heading. */
export interface AreaTab {
  value: string;
  label: string;
  group: string;
  render(profileId: string): ReactNode;
}

export function ResourceArea({
  area,
  extraTabs = [],
  recordPages = {},
  ownLists = {},
  recordExtras = {},
  listNotes = {},
  relatedNotes = {},
}: {
  area: Area;
  extraTabs?: readonly AreaTab[];
  recordPages?: Partial<Record<ResourceKind, RecordPage>>;
  /** A kind's own screen in place of its generic list (the access-request queue). */
  ownLists?: Partial<Record<ResourceKind, ComponentType<{ profileId: string }>>>;
  recordExtras?: Partial<Record<ResourceKind, RecordExtra>>;
  /** A kind's note above its list with links in it, in place of the declaration's plain words. */
  listNotes?: Partial<Record<ResourceKind, ComponentType<{ profileId: string }>>>;
  /** Under a related list's heading in a kind's details (a course's Enrolled: how people get in), by related kind. */
  relatedNotes?: Partial<Record<ResourceKind, Partial<Record<ResourceKind, RecordExtra>>>>;
}) {
  const kinds = kindsOf(area);
  const [routed, routedId] = useSubRoute();
  const extra = extraTabs.find((tab) => tab.value === routed);
  const current = kinds.find((declaration) => declaration.kind === routed) ?? kinds[0]!;
  const tenant = useActiveTenant();

  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1} size="h2">
          {RESOURCE_AREAS[area]}
        </Title>
        <Text c="dimmed" size="sm">
          {AREA_SUBTITLE[area][0]}
          {tenant.profile ? <strong>{tenant.profile.name}</strong> : 'the active tenant'}
          {AREA_SUBTITLE[area][1]}
        </Text>
      </div>
      {routed && !extra && !kinds.some((declaration) => declaration.kind === routed) && (
        // A link from elsewhere (or an old bookmark) that names no tab here: said, rather than quietly another tab.
        <Alert color="yellow" icon={<WarningIcon />} title={`Nothing here is called “${routed}”`}>
          {RESOURCE_AREAS[area]} has no page by that name; {current.label} is shown instead.
        </Alert>
      )}
      {!tenant.id && tenant.known && (
        <Alert color="yellow" icon={<WarningIcon />} title="No active tenant">
          Add a tenant in Settings → Tenants, or make one active from the top bar.
        </Alert>
      )}
      <Tabs
        value={extra?.value ?? current.kind}
        onChange={(kind) => kind && navigateTo(`#/${area}/${kind}`)}
        keepMounted={false}
        orientation="vertical"
        // A column of names reads down its left edge, as the group headings do.
        styles={{ tabLabel: { textAlign: 'start' } }}
      >
        <Tabs.List miw={160} style={{ alignSelf: 'flex-start', flexShrink: 0 }}>
          {groupsOf(kinds).map(({ group, kinds: grouped }, index) => (
            <Fragment key={group ?? ''}>
              {group && (
                // The tabs carry their own names; the heading only files them for the eye.
                <Text aria-hidden size="xs" fw={600} c="dimmed" tt="uppercase" pt={index ? 'sm' : 0} pb={4} px="md">
                  {group}
                </Text>
              )}
              {grouped.map((declaration) => (
                <Tabs.Tab key={declaration.kind} value={declaration.kind}>
                  {declaration.label}
                </Tabs.Tab>
              ))}
            </Fragment>
          ))}
          {extraTabs.map((tab) => (
            <Fragment key={tab.value}>
              <Text aria-hidden size="xs" fw={600} c="dimmed" tt="uppercase" pt="sm" pb={4} px="md">
                {tab.group}
              </Text>
              <Tabs.Tab value={tab.value}>{tab.label}</Tabs.Tab>
            </Fragment>
          ))}
        </Tabs.List>
        {tenant.id &&
          kinds.map((declaration) => {
            const Page = recordPages[declaration.kind];
            const Own = ownLists[declaration.kind];
            return (
              <Tabs.Panel key={declaration.kind} value={declaration.kind} pl="md" miw={0}>
                {Page && declaration.kind === routed && routedId !== undefined ? (
                  <Page
                    key={`${tenant.id}:${routedId}`}
                    profileId={tenant.id!}
                    id={routedId}
                    onBack={() => navigateTo(`#/${area}/${declaration.kind}`)}
                  />
                ) : Own ? (
                  <Own key={`${tenant.id}:${declaration.kind}`} profileId={tenant.id!} />
                ) : declaration.single ? (
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
                    Extra={recordExtras[declaration.kind]}
                    Note={listNotes[declaration.kind]}
                    relatedNotes={relatedNotes[declaration.kind]}
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
            );
          })}
        {tenant.id &&
          extraTabs.map((tab) => (
            <Tabs.Panel key={tab.value} value={tab.value} pl="md" miw={0}>
              <div key={tenant.id}>{tab.render(tenant.id!)}</div>
            </Tabs.Panel>
          ))}
      </Tabs>
    </Stack>
  );
}
