/**
 * A test of the platform's audio-to-text: choose a recording, see what the app makes of it (a file that is plainly
 * not audio is refused here), and read the platform's transcript or its refusal in its own words.
 */
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AudioCheck } from '../../../../shared/contract';
import { errorMessage } from '../../../bridge/errors';
import { useBridge } from '../../../bridge/BridgeContext';
import { FileIcon, WarningIcon } from '../../../components/icons';
import { AudioCheckList, isRefused } from './AudioCheckList';
import { useAudioFiles, type ChosenAudio } from './useAudioFiles';

export function AudioToText({ profileId }: { profileId: string }) {
  const bridge = useBridge();
  const [chosen, setChosen] = useState<{ file: ChosenAudio; check: AudioCheck } | null>(null);
  const [busy, setBusy] = useState(false);
  const [transcript, setTranscript] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function transcribe(file: ChosenAudio) {
    setBusy(true);
    setError(null);
    setTranscript(null);
    try {
      const check = await bridge.call('audio.inspect', { paths: [file.handle], purpose: 'transcribe' });
      setChosen({ file, check });
      if (isRefused(check)) return;
      setTranscript((await bridge.call('audio.transcribe', { profileId, path: file.handle })).text);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  const picker = useAudioFiles({
    multiple: false,
    label: 'Audio file to transcribe',
    onChosen: ([file]) => file && void transcribe(file),
    onError: setError,
  });

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Audio to text">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Audio to text
          </Title>
          <Text size="sm" c="dimmed">
            Send a recording to the platform’s speech recognition and read what it hears.
          </Text>
        </div>
        <Group>
          <Button variant="light" leftSection={<FileIcon size={16} />} loading={busy} onClick={picker.choose}>
            Choose a recording…
          </Button>
        </Group>
        {picker.input}
        {chosen && <AudioCheckList check={chosen.check} />}
        {error && (
          <Alert color="red" icon={<WarningIcon />} title="No transcript">
            {error}
          </Alert>
        )}
        {transcript !== null && (
          <Paper withBorder radius="sm" p="sm" bg="var(--mantine-color-default-hover)" data-testid="transcript">
            <Text size="xs" c="dimmed" mb={4}>
              Transcript of {chosen?.file.name}
            </Text>
            <Text size="sm">{transcript || '(the platform heard nothing)'}</Text>
          </Paper>
        )}
      </Stack>
    </Paper>
  );
}
