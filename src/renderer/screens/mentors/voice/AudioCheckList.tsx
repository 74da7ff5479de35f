/** What the app made of chosen audio files: name, size, format; refusals in red, warnings in yellow. */
import { Alert, Stack, Text } from '@mantine/core';
import type { AudioCheck } from '../../../../shared/contract';
import { WarningIcon } from '../../../components/icons';
import { formatBytes } from '../../../lib/format';

export function AudioCheckList({ check }: { check: AudioCheck }) {
  const refusals = [...check.files.map((file) => file.refusal), check.refusal].filter(Boolean);
  const warnings = [...check.files.map((file) => file.warning), check.warning].filter(Boolean);
  return (
    <Stack gap={6}>
      {check.files.map((file) => (
        <Text key={file.name} size="sm">
          {file.name}{' '}
          <Text span c="dimmed" size="sm">
            · {formatBytes(file.bytes)}
            {file.format && ` · ${file.format}`}
            {file.seconds !== null && ` · ${file.seconds.toFixed(1)} s`}
          </Text>
        </Text>
      ))}
      {refusals.length > 0 && (
        <Alert color="red" icon={<WarningIcon />} title="Not sent" p="xs">
          {refusals.map((reason) => (
            <Text key={reason} size="sm">
              {reason}
            </Text>
          ))}
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" icon={<WarningIcon />} p="xs">
          {warnings.map((reason) => (
            <Text key={reason} size="sm">
              {reason}
            </Text>
          ))}
        </Alert>
      )}
    </Stack>
  );
}

export const isRefused = (check: AudioCheck) => !!check.refusal || check.files.some((file) => !!file.refusal);
