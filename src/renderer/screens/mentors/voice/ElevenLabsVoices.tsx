/**
 * The tenant's ElevenLabs voices: the premade ones and those made from the tenant's recordings; add one from audio
 * samples (checked before they are sent: not audio, or more than the spec's 11 MiB in all, is refused here), delete
 * one after asking.
 */
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import type { AudioCheck, ElevenLabsVoice } from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { useBridge } from '../../../bridge/BridgeContext';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { FileIcon, PlusIcon, TrashIcon } from '../../../components/icons';
import { SectionLoadError } from '../../../components/SectionReach';
import { useWriteRefusal, WriteButton } from '../../../resources/writeGate';
import { notifyError, notifySuccess } from '../../../components/notify';
import { useCall, useMutationCall } from '../../../queries/useCall';
import { AudioCheckList, isRefused } from './AudioCheckList';
import { useAudioFiles, type ChosenAudio } from './useAudioFiles';

export function ElevenLabsVoices({ profileId }: { profileId: string }) {
  const list = useCall('voices.elevenlabs', { profileId });
  const remove = useMutationCall('voices.deleteElevenlabs');
  const [deleting, setDeleting] = useState<ElevenLabsVoice | null>(null);
  const [adding, setAdding] = useState(false);
  const writeRefusal = useWriteRefusal();

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="ElevenLabs voices">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={2} size="h4">
              ElevenLabs voices
            </Title>
            <Text size="sm" c="dimmed">
              Voices of this tenant, made from recordings, and the premade ones any mentor may use.
            </Text>
          </div>
          {!adding && (
            <WriteButton
              refusal={writeRefusal}
              size="sm"
              variant="light"
              leftSection={<PlusIcon size={16} />}
              onClick={() => setAdding(true)}
            >
              Add a voice…
            </WriteButton>
          )}
        </Group>
        {adding && <AddVoice profileId={profileId} onDone={() => setAdding(false)} />}
        {list.isPending && <Skeleton height={80} radius="sm" />}
        {list.isError && (
          <SectionLoadError
            section="elevenlabs-voices"
            title="The voices could not be read"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        )}
        {list.data && (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing={6} aria-label="ElevenLabs voices list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Language</Table.Th>
                  <Table.Th>Made by</Table.Th>
                  <Table.Th w={48} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.voices.map((voice) => (
                  <Table.Tr key={voice.name}>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm">{voice.name}</Text>
                        {voice.premade && (
                          <Badge size="xs" variant="light" color="gray">
                            Premade
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{voice.language || '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{voice.premade ? 'ElevenLabs' : voice.owner || '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      {!voice.premade && (
                        <Tooltip label={`Delete ${voice.name}`}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Delete voice ${voice.name}`}
                            onClick={() => setDeleting(voice)}
                          >
                            <TrashIcon size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <ConfirmModal
        target={deleting}
        title="Delete voice"
        mutation={remove}
        failedTitle="The voice was not deleted"
        confirmLabel="Delete voice"
        onClose={() => setDeleting(null)}
        onConfirm={(voice, close) =>
          remove.mutate(
            { profileId, name: voice.name },
            {
              onSuccess: () => {
                notifySuccess('Voice deleted', `${voice.name} is gone from this tenant and from ElevenLabs.`);
                close();
              },
            },
          )
        }
      >
        {(voice) => (
          <Text size="sm">
            Delete the voice “{voice.name}”? Mentors that speak with it have no custom voice until you choose another.
          </Text>
        )}
      </ConfirmModal>
    </Paper>
  );
}

function AddVoice({ profileId, onDone }: { profileId: string; onDone(): void }) {
  const bridge = useBridge();
  const add = useMutationCall('voices.addElevenlabs');
  const [name, setName] = useState('');
  const [samples, setSamples] = useState<{ files: ChosenAudio[]; check: AudioCheck } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function inspect(files: ChosenAudio[]) {
    setError(null);
    try {
      const check = await bridge.call('audio.inspect', { paths: files.map((f) => f.handle), purpose: 'voice-samples' });
      setSamples({ files, check });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }
  const picker = useAudioFiles({
    multiple: true,
    label: 'Voice samples',
    onChosen: (files) => void inspect(files),
    onError: setError,
  });
  const ready = !!name.trim() && !!samples && !isRefused(samples.check);

  return (
    <Paper
      withBorder
      radius="sm"
      p="sm"
      component="form"
      aria-label="Add a voice"
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        add.mutate(
          { profileId, name: name.trim(), paths: samples.files.map((f) => f.handle) },
          {
            onSuccess: (voice) => {
              notifySuccess('Voice added', `${voice.name} can now be a mentor's voice.`);
              onDone();
            },
            onError: (caught) => notifyError('Voice not added', caught),
          },
        );
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          placeholder="Narrator"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={255}
          data-autofocus
          autoFocus
        />
        <div>
          <Group gap="sm">
            <Button variant="default" size="sm" leftSection={<FileIcon size={16} />} onClick={picker.choose}>
              {samples ? 'Choose other samples…' : 'Choose samples…'}
            </Button>
            <Text size="xs" c="dimmed">
              Recordings of the voice: more than a minute in all, less than 11 MiB.
            </Text>
          </Group>
          {picker.input}
        </div>
        {samples && <AudioCheckList check={samples.check} />}
        {(error ?? (add.isError && errorMessage(add.error))) && (
          <Text size="sm" c="red">
            {error ?? errorMessage(add.error)}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" size="sm" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" size="sm" disabled={!ready} loading={add.isPending}>
            Add voice
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
