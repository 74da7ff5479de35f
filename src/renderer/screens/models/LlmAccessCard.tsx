import { Alert, Badge, Group, Paper, Progress, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { CloudOffIcon } from '../../components/icons';
import { SavedCopyNote } from '../../components/FreshnessBar';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { useTenantReach } from '../../tenants/useTenantReach';
import { notifyError, notifySuccess } from '../../components/notify';
import { formatCount } from '../../lib/format';
import { fieldLabel } from '../../resources/naming';
import { useCall, useMutationCall } from '../../queries/useCall';

/** The default key's usage as a meter, when the platform's answer holds a count and its allowance. */
function meterOf(usage: Record<string, unknown> | null): { used: number; limit: number } | null {
  if (!usage) return null;
  const number = (...names: string[]) => names.map((name) => usage[name]).find((v) => typeof v === 'number');
  const used = number('usage', 'used', 'count', 'requests');
  const limit = number('limit', 'max', 'quota', 'allowance');
  return used !== undefined && limit !== undefined && limit > 0 ? { used, limit } : null;
}

/**
 * The platform's default LLM key and the free trial: switches with what they mean, and the key's usage. The usage
 * answer has no schema in the spec: a count and a limit show as a meter, any other field as it came.
 */
export function LlmAccessCard({ profileId }: { profileId: string }) {
  const access = useCall('llmAccess.get', { profileId });
  const set = useMutationCall('llmAccess.set');
  const data = access.data;
  // The app's banner says the tenant cannot be reached (and that changes wait): the card only says how old it is.
  const bannerSaysWhy = useTenantReach(profileId).unreachable;
  const meter = meterOf(data?.usage ?? null);
  const other = Object.entries(data?.usage ?? {}).filter(
    ([name, value]) =>
      !['use_main_credentials', 'usage', 'used', 'limit'].includes(name) &&
      (typeof value !== 'object' || value === null),
  );
  const flip = (change: { defaultKey: boolean } | { freeTrial: boolean }) =>
    set.mutate(
      { profileId, ...change },
      {
        onSuccess: ({ messages }) => notifySuccess('Saved', messages.join('\n')),
        onError: (error) => notifyError('Not switched', error),
      },
    );
  const pending = set.isPending ? set.variables : undefined;

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            Default key and free trial
          </Title>
          <Text size="sm" c="dimmed">
            Mentors can run on the platform&rsquo;s own LLM key instead of the tenant&rsquo;s keys below.
          </Text>
        </div>
        {access.isPending && <Skeleton height={88} radius="sm" aria-label="Loading the default key and free trial" />}
        {access.isError && (
          <LoadErrorAlert
            title="The default key and free trial could not be loaded"
            error={access.error}
            onRetry={() => void access.refetch()}
          />
        )}
        {data?.offline && bannerSaysWhy && <SavedCopyNote asOf={data.asOf} />}
        {data?.offline && !bannerSaysWhy && (
          <Alert color="yellow" variant="light" icon={<CloudOffIcon />} title="Showing the saved copy">
            {data.offline} Switches cannot be changed until the tenant can be reached.
          </Alert>
        )}
        {data && (
          <>
            <Group align="flex-start" gap="xl" wrap="wrap">
              <Switch
                label="Use the platform's default LLM key"
                description={
                  data.defaultKey === null
                    ? 'The platform did not say whether it is in use.'
                    : 'Mentors without a key of their own provider use it.'
                }
                checked={pending && 'defaultKey' in pending ? !!pending.defaultKey : data.defaultKey === true}
                disabled={set.isPending || !!data.offline}
                onChange={(event) => flip({ defaultKey: event.currentTarget.checked })}
                maw={360}
              />
              <Switch
                label={
                  // The platform's word on the trial beside the switch's name, not at the far end of the row.
                  <Group gap={8} wrap="nowrap" component="span">
                    Free trial
                    {data.freeTrial !== null && (
                      <Badge variant="light" color={data.freeTrial ? 'teal' : 'gray'} data-testid="free-trial-state">
                        {data.freeTrial ? 'In free trial' : 'Not in free trial'}
                      </Badge>
                    )}
                  </Group>
                }
                description="The tenant's free trial of the platform's LLMs."
                checked={pending && 'freeTrial' in pending ? !!pending.freeTrial : data.freeTrial === true}
                disabled={set.isPending || !!data.offline}
                onChange={(event) => flip({ freeTrial: event.currentTarget.checked })}
                maw={360}
              />
            </Group>
            <Stack gap={6} data-testid="default-key-usage">
              <Text size="sm" fw={500}>
                Default key usage
              </Text>
              {meter ? (
                <>
                  <Progress
                    value={Math.min(100, (meter.used / meter.limit) * 100)}
                    color={meter.used >= meter.limit ? 'red' : meter.used / meter.limit > 0.8 ? 'yellow' : 'blue'}
                    aria-label="Default key usage"
                  />
                  <Text size="xs" c="dimmed">
                    {formatCount(meter.used)} of {formatCount(meter.limit)} used
                  </Text>
                </>
              ) : !data.usage ? (
                <Text size="xs" c="dimmed">
                  The platform answered nothing about its usage.
                </Text>
              ) : null}
              {other.map(([name, value]) => (
                <Text key={name} size="xs" c="dimmed">
                  {fieldLabel(name)}: {String(value)}
                </Text>
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}
