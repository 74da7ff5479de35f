/**
 * Credentials: the tenant's badges (image, course, holders), issuance over the last 30 days, and one badge's details
 * (`#/credentials/<badge id>`): issue it to a course's completers, see and revoke its assertions.
 */
import { Box, Group, ScrollArea, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { OfflineBanner } from '../../components/FreshnessBar';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { formatCount } from '../../lib/format';
import { useCall } from '../../queries/useCall';
import { ImagePreview } from '../../resources/fields/ImageField';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { navigateTo, useSubRoute } from '../../shell/routes';
import { useActiveTenant } from '../../tenants/tenantContext';
import { BadgeDetail } from './BadgeDetail';
import { BadgeForm } from './BadgeForm';
import { IssuanceChart } from './IssuanceChart';

const badgeHref = (id: string) => `#/credentials/${encodeURIComponent(id)}`;

export function CredentialsScreen() {
  const [selected] = useSubRoute();
  const badges = useCall('badges.list', {});
  // A badge names its course by id; the list says the course's name (the id stays in its title), from the catalogue's
  // cache (its first 500 courses), which keeps the names while the tenant is not answering.
  const courses = useCall('resources.list', { kind: 'courses', pageSize: 500 });
  const courseName = useMemo(
    () =>
      new Map(
        (courses.data?.records ?? [])
          .filter((course) => typeof course.name === 'string' && course.name.trim())
          .map((course) => [String(course.course_id), String(course.name)] as const),
      ),
    [courses.data],
  );
  const [defining, setDefining] = useState(false);
  const [search, setSearch] = useState('');
  const { ref, width } = useElementSize();
  const shown = useMemo(() => {
    const words = search.trim().toLowerCase();
    return (badges.data?.badges ?? []).filter(
      (b) =>
        !words ||
        `${b.name} ${b.description} ${b.course ?? ''} ${courseName.get(b.course ?? '') ?? ''}`
          .toLowerCase()
          .includes(words),
    );
  }, [badges.data, search, courseName]);
  const badge = badges.data?.badges.find((b) => b.id === selected) ?? null;
  /**
   * The list is the saved copy, or the engine knows the tenant is not answering (the list's copy may still be fresh):
   * nothing is sent to it from here.
   */
  const refusal = useWriteRefusal(badges.data?.freshness);
  const tenant = useActiveTenant();

  return (
    <Stack gap="md" p="md" ref={ref} data-testid="credentials-screen">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div>
          <Title order={1} size="h2">
            Credentials
          </Title>
          <Text c="dimmed" size="sm" data-testid="credentials-subtitle">
            The badges of {tenant.profile ? <strong>{tenant.profile.name}</strong> : 'the active tenant'}, and whom they
            were issued to.
          </Text>
        </div>
        <WriteButton refusal={refusal} onClick={() => setDefining(true)}>
          Define badge
        </WriteButton>
      </Group>
      {/* With the app's banner up, only how old the copy is. */}
      <OfflineBanner freshness={badges.data?.freshness} data-testid="badges-saved-copy" />
      <IssuanceChart width={width - 32} failureSaid={!badges.data || !!refusal} />
      <Group align="flex-start" gap="md" wrap={width < 900 ? 'wrap' : 'nowrap'}>
        <Stack gap="xs" style={{ flex: width < 900 ? '1 1 100%' : '0 0 44%', minWidth: 0 }}>
          <TextInput
            placeholder="Search badges"
            aria-label="Search badges"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          {badges.isLoading ? (
            <Skeleton h={200} />
          ) : badges.error ? (
            <LoadErrorAlert
              title="Badges could not be loaded"
              error={badges.error}
              onRetry={() => void badges.refetch()}
            />
          ) : shown.length === 0 ? (
            <Text size="sm" c="dimmed">
              {search ? 'No badge matches.' : 'No badges yet: define one.'}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={420}>
              <Table highlightOnHover data-testid="badge-list">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={56} />
                    <Table.Th>Badge</Table.Th>
                    <Table.Th>Course</Table.Th>
                    <Table.Th ta="right">Holders</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((b) => (
                    <Table.Tr
                      key={b.id}
                      tabIndex={0}
                      aria-selected={b.id === selected}
                      bg={b.id === selected ? 'var(--mantine-primary-color-light)' : undefined}
                      style={{ cursor: 'pointer' }}
                      onClick={() => navigateTo(badgeHref(b.id))}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          navigateTo(badgeHref(b.id));
                        }
                      }}
                    >
                      <Table.Td>
                        <ImagePreview value={b.image} label={`${b.name} image`} size={32} />
                      </Table.Td>
                      <Table.Td>{b.name}</Table.Td>
                      <Table.Td>
                        <Text
                          size="sm"
                          c="dimmed"
                          lineClamp={1}
                          style={{ wordBreak: 'break-word' }}
                          title={b.course ?? undefined}
                        >
                          {b.course ? (courseName.get(b.course) ?? b.course) : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">{b.issued === null ? '—' : formatCount(b.issued)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
        </Stack>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {badge ? (
            <BadgeDetail
              key={badge.id}
              badge={badge}
              refusal={refusal}
              courseName={badge.course ? courseName.get(badge.course) : undefined}
            />
          ) : (
            <Text size="sm" c="dimmed">
              Pick a badge to issue it and see who holds it.
            </Text>
          )}
        </Box>
      </Group>
      <BadgeForm opened={defining} onClose={() => setDefining(false)} onDefined={(id) => navigateTo(badgeHref(id))} />
    </Stack>
  );
}
