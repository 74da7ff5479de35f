import type { MantineColor } from '@mantine/core';
import type { DocumentStatus } from '../../../shared/contract';

export const STATUS_INFO: Record<DocumentStatus, { label: string; color: MantineColor; description: string }> = {
  trained: { label: 'Trained', color: 'teal', description: 'The mentor uses it in answers' },
  pending: { label: 'Pending', color: 'blue', description: 'Being trained' },
  failed: { label: 'Failed', color: 'red', description: 'Training failed' },
  untrained: { label: 'Untrained', color: 'gray', description: 'Uploaded, not used in answers' },
};
