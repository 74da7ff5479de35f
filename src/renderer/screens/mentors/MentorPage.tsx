import { Anchor, Badge, Breadcrumbs, Button, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { isUnreachable } from '../../components/nextStep';
import { CopyIcon, EditIcon, TrashIcon } from '../../components/icons';
import { useCall } from '../../queries/useCall';
import { mentorsHref, navigateTo } from '../../shell/routes';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import { useActiveTenant } from '../../tenants/tenantContext';
import { useRegisterPageMentor, type MentorTarget } from '../../train/TrainFlowContext';
import { DeleteMentorModal } from './DeleteMentorModal';
import { DocumentsPanel } from './DocumentsPanel';
import { EvaluationsPanel } from './EvaluationsPanel';
import { KnowledgePanel } from './KnowledgePanel';
import { MemoryPanel } from './MemoryPanel';
import { MentorFormModal } from './MentorFormModal';
import { MentorSettingsPanel } from './MentorSettingsPanel';
import { MentorTraining } from './MentorTraining';
import { SharingPanel } from './SharingPanel';
import { CopyMentorModal, ExportMentorButton } from './MentorTransfer';
import { TestKnowledge } from './TestKnowledge';
import { VISIBILITY_INFO } from './visibility';
import { VoicePanel } from './voice/VoicePanel';
import { ReviewQuoteNote } from './ReviewQuoteNote';

/** One mentor: its documents (and dropping more onto the window trains it), a knowledge test and its settings. */
export function MentorPage({ uniqueId, initialTab }: { uniqueId: string; initialTab?: string | undefined }) {
  const { profile: tenant } = useActiveTenant();
  const mentor = useCall('mentors.get', { profileId: tenant?.id ?? '', mentor: uniqueId }, { enabled: !!tenant });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [copying, setCopying] = useState(false);
  const [tab, setTab] = useState<string | null>(initialTab ?? 'documents');
  const data = mentor.data;
  const target: MentorTarget | null =
    tenant && data ? { profileId: tenant.id, uniqueId: data.uniqueId, name: data.name } : null;
  useRegisterPageMentor(target);
  const visibility = data?.visibility ? VISIBILITY_INFO[data.visibility] : null;
  // The tenant out of reach: the page shows what was saved, and nothing here may change it.
  const writeRefusal = useWriteRefusal();

  return (
    <Stack gap="lg" maw={1200}>
      <Breadcrumbs>
        <Anchor href={mentorsHref()} size="sm">
          Mentors
        </Anchor>
        <Text size="sm" c="dimmed">
          {data?.name ?? '…'}
        </Text>
      </Breadcrumbs>

      {mentor.isPending && tenant && <Skeleton height={60} radius="md" />}
      {mentor.isError && (
        <LoadErrorAlert
          // Offline, a mentor never read before has nothing cached to show: say that, not that it is broken.
          title={
            isUnreachable(mentor.error)
              ? 'This mentor has not been read on this computer yet'
              : 'This mentor could not be opened'
          }
          error={mentor.error}
          onRetry={() => void mentor.refetch()}
          action={
            <Button size="xs" variant="default" component="a" href={mentorsHref()}>
              Back to mentors
            </Button>
          }
        />
      )}

      {data && target && tenant && (
        <>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Group gap="sm">
                <Title order={1} size="h2">
                  {data.name}
                </Title>
                {visibility && (
                  <Badge variant="light" color={visibility.color} radius="sm">
                    {visibility.label}
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed" mt={4} maw={760}>
                {data.description || 'No description.'}
              </Text>
            </div>
            <Group gap="xs" wrap="nowrap">
              <WriteButton
                refusal={writeRefusal}
                variant="default"
                size="sm"
                leftSection={<EditIcon size={16} />}
                onClick={() => setEditing(true)}
              >
                Edit
              </WriteButton>
              <ExportMentorButton profileId={tenant.id} mentor={data} refusal={writeRefusal} />
              <WriteButton
                refusal={writeRefusal}
                variant="default"
                size="sm"
                leftSection={<CopyIcon size={16} />}
                onClick={() => setCopying(true)}
              >
                Copy to tenant…
              </WriteButton>
              <WriteButton
                refusal={writeRefusal}
                variant="subtle"
                color="red"
                size="sm"
                leftSection={<TrashIcon size={16} />}
                onClick={() => setDeleting(true)}
              >
                Delete
              </WriteButton>
            </Group>
          </Group>

          <MentorTraining mentor={target} />

          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="documents">Documents</Tabs.Tab>
              <Tabs.Tab value="test">Test knowledge</Tabs.Tab>
              <Tabs.Tab value="settings">Settings</Tabs.Tab>
              <Tabs.Tab value="knowledge">Knowledge</Tabs.Tab>
              <Tabs.Tab value="sharing">Sharing</Tabs.Tab>
              <Tabs.Tab value="evaluations">Evaluations</Tabs.Tab>
              <Tabs.Tab value="voice">Voice</Tabs.Tab>
              <Tabs.Tab value="memory">Memory</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="documents" pt="md">
              <DocumentsPanel mentor={target} />
            </Tabs.Panel>
            <Tabs.Panel value="test" pt="md">
              <TestKnowledge mentor={target} />
            </Tabs.Panel>
            <Tabs.Panel value="settings" pt="md">
              <ReviewQuoteNote mentor={target.uniqueId} />
              <MentorSettingsPanel mentor={target} onOpenKnowledge={() => setTab('knowledge')} />
            </Tabs.Panel>
            <Tabs.Panel value="knowledge" pt="md">
              <KnowledgePanel mentor={target} />
            </Tabs.Panel>
            <Tabs.Panel value="sharing" pt="md">
              <SharingPanel mentor={target} details={data} />
            </Tabs.Panel>
            <Tabs.Panel value="evaluations" pt="md">
              <EvaluationsPanel mentor={target} />
            </Tabs.Panel>
            <Tabs.Panel value="voice" pt="md">
              <VoicePanel key={`${tenant.id}:${data.uniqueId}`} mentor={target} />
            </Tabs.Panel>
            <Tabs.Panel value="memory" pt="md">
              <MemoryPanel mentor={target} />
            </Tabs.Panel>
          </Tabs>

          <MentorFormModal
            profileId={tenant.id}
            target={editing ? { mode: 'edit', mentor: data } : null}
            onClose={() => setEditing(false)}
          />
          <CopyMentorModal profileId={tenant.id} mentor={data} opened={copying} onClose={() => setCopying(false)} />
          <DeleteMentorModal
            profileId={tenant.id}
            mentor={deleting ? data : null}
            onClose={() => setDeleting(false)}
            onDeleted={() => navigateTo(mentorsHref())}
          />
        </>
      )}
    </Stack>
  );
}
