/**
 * A mentor's "Voice" tab: its custom voice (an ElevenLabs voice, or the platform's default), hearing it say a
 * sentence (`custom-voice-tts/`: the engine fetches the audio, the page plays it from a blob: URL — the CSP's only
 * media source), the tenant's ElevenLabs voices, a test of audio-to-text, and a check of its call credentials.
 */
import { Alert, Button, Group, Paper, Select, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../../bridge/errors';
import { PlayIcon, WarningIcon } from '../../../components/icons';
import { NOT_AVAILABLE_OFFLINE } from '../../../components/FreshnessBar';
import { SectionLoadError, SectionReach } from '../../../components/SectionReach';
import { useWriteRefusal, WriteButton } from '../../../resources/writeGate';
import { notifyError, notifySuccess } from '../../../components/notify';
import { useCall, useMutationCall } from '../../../queries/useCall';
import type { MentorTarget } from '../../../train/TrainFlowContext';
import { AudioToText } from './AudioToText';
import { CallCheck } from './CallCheck';
import { ElevenLabsVoices } from './ElevenLabsVoices';

const DEFAULT = '__default__';

export function VoicePanel({ mentor }: { mentor: MentorTarget }) {
  return (
    <SectionReach what="this mentor's voice">
      <Stack gap="lg" data-testid="mentor-voice">
        <MentorVoice mentor={mentor} />
        <Listen mentor={mentor} />
        <ElevenLabsVoices profileId={mentor.profileId} />
        <AudioToText profileId={mentor.profileId} />
        {/* Keyed by tenant and mentor: one mentor's answer never shows under another. */}
        <CallCheck key={`${mentor.profileId}:${mentor.uniqueId}`} mentor={mentor} />
      </Stack>
    </SectionReach>
  );
}

function MentorVoice({ mentor }: { mentor: MentorTarget }) {
  const input = { profileId: mentor.profileId, mentor: mentor.uniqueId };
  const voice = useCall('mentors.voice', input);
  const voices = useCall('voices.elevenlabs', { profileId: mentor.profileId });
  const save = useMutationCall('mentors.setVoice');
  const current = voice.data?.provider === 'elevenlabs' && voice.data.name ? voice.data.name : DEFAULT;
  // What the admin picked; until then (and after saving), the mentor's voice.
  const [picked, setPicked] = useState<string | null>(null);
  const choice = picked ?? current;
  const writeRefusal = useWriteRefusal();

  const options = [
    { value: DEFAULT, label: 'The platform’s default voice' },
    ...(voices.data?.voices ?? []).map((v) => ({ value: v.name, label: v.premade ? `${v.name} (premade)` : v.name })),
  ];
  if (current !== DEFAULT && !options.some((o) => o.value === current)) {
    options.push({ value: current, label: `${current} (no longer on the tenant)` });
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Mentor voice">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Voice
          </Title>
          <Text size="sm" c="dimmed">
            The voice {mentor.name} speaks with: one of the tenant’s ElevenLabs voices, or the platform’s default.
          </Text>
        </div>
        {voice.isPending && <Skeleton height={36} radius="sm" />}
        {voice.isError && (
          <SectionLoadError
            section="mentor-voice"
            title="The mentor's voice could not be read"
            error={voice.error}
            onRetry={() => void voice.refetch()}
          />
        )}
        {voice.data && (
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label="Custom voice"
              data={options}
              value={choice}
              onChange={(value) => setPicked(value ?? DEFAULT)}
              allowDeselect={false}
              searchable
              w={320}
              maw="100%"
              disabled={voices.isPending}
              error={voices.isError ? `The voices could not be read: ${errorMessage(voices.error)}` : undefined}
            />
            <WriteButton
              refusal={writeRefusal}
              disabled={choice === current}
              loading={save.isPending}
              onClick={() =>
                save.mutate(
                  choice === DEFAULT
                    ? { ...input, provider: 'default', name: null }
                    : { ...input, provider: 'elevenlabs', name: choice },
                  {
                    onSuccess: () => {
                      setPicked(null);
                      notifySuccess(
                        'Voice saved',
                        choice === DEFAULT
                          ? `${mentor.name} speaks with the default voice.`
                          : `${mentor.name} speaks with ${choice}.`,
                      );
                    },
                    onError: (error) => notifyError('Voice not saved', error),
                  },
                )
              }
            >
              Save voice
            </WriteButton>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Listen({ mentor }: { mentor: MentorTarget }) {
  const speak = useMutationCall('mentors.speak');
  const voice = useCall('mentors.voice', { profileId: mentor.profileId, mentor: mentor.uniqueId });
  const [text, setText] = useState(`Hello! I am ${mentor.name}. What would you like to learn today?`);
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  // Each new sentence's audio replaces the last; the blob: URL is let go with it.
  useEffect(() => () => void (audioUrl && URL.revokeObjectURL(audioUrl)), [audioUrl]);
  // It speaks only in a custom voice: off until the mentor's voice is known to be one (unknown is not "none"), and
  // while the tenant cannot be reached.
  const hasCustomVoice = voice.data?.provider === 'elevenlabs';
  const refusal = useWriteRefusal();
  const reason = refusal
    ? // The app's banner says why.
      `${NOT_AVAILABLE_OFFLINE}.`
    : voice.data
      ? hasCustomVoice
        ? null
        : 'The platform speaks only in a custom voice: choose an ElevenLabs voice above and save it first.'
      : voice.isError
        ? 'The mentor’s voice could not be read, so it is not known whether it can speak.'
        : null;
  const reasonId = useId();

  function listen() {
    speak.mutate(
      { profileId: mentor.profileId, mentor: mentor.uniqueId, text },
      {
        onSuccess: ({ mime, audio }) => {
          const bytes = Uint8Array.from(atob(audio), (c) => c.charCodeAt(0));
          setAudioUrl(URL.createObjectURL(new Blob([bytes], { type: mime })));
        },
      },
    );
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Listen">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Listen
          </Title>
          <Text size="sm" c="dimmed">
            Hear {mentor.name} say a sentence in its custom voice.
          </Text>
        </div>
        <Textarea
          label="Sentence"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={6}
        />
        <Group gap="sm" wrap="wrap">
          <Button
            leftSection={<PlayIcon size={16} />}
            loading={speak.isPending}
            // The platform answers only 'custom voice not set' until the mentor has one: the reason is said beside.
            disabled={!text.trim() || !hasCustomVoice || !!refusal}
            aria-describedby={reason ? reasonId : undefined}
            onClick={listen}
          >
            Listen
          </Button>
          {reason && (
            <Text size="sm" c="dimmed" id={reasonId}>
              {reason}
            </Text>
          )}
        </Group>
        {speak.isError && (
          <Alert color="red" icon={<WarningIcon />} title="No audio">
            {errorMessage(speak.error)}
          </Alert>
        )}
        {audioUrl && (
          <audio controls autoPlay src={audioUrl} data-testid="voice-audio" style={{ width: '100%', maxWidth: 480 }}>
            <track kind="captions" />
          </audio>
        )}
      </Stack>
    </Paper>
  );
}
