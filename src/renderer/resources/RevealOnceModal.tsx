import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { ResourceDeclaration } from '../../shared/resources';
import { WarningIcon } from '../components/icons';
import { capitalized } from './naming';

interface RevealOnceModalProps {
  declaration: ResourceDeclaration;
  /** The record's id and what the platform answered once; the modal is open while it is set. */
  shown: { id: string; values: Record<string, string> } | null;
  onClose(): void;
}

/**
 * What the platform shows once (a new API token's key): here, with a copy button, until the admin closes it. It is
 * kept in this modal's props only: the engine never stored it and no list will show it again.
 */
export function RevealOnceModal({ declaration, shown, onClose }: RevealOnceModalProps) {
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={`${capitalized(declaration.singular)} created`}
      centered
      size="lg"
      closeOnClickOutside={false}
    >
      {shown && (
        <Stack gap="md">
          <Alert color="yellow" icon={<WarningIcon />} title="Copy it now">
            This is the only time it is shown. Mentor Admin does not keep it: store it where the script or integration
            that uses it can read it.
          </Alert>
          {Object.entries(shown.values).map(([field, value]) => (
            <Stack key={field} gap={4}>
              <Text size="sm" fw={500}>
                {field === 'key' ? `Key of "${shown.id}"` : field}
              </Text>
              <Group gap="sm" wrap="nowrap" align="center">
                <Code
                  block
                  data-testid="revealed-value"
                  style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap', userSelect: 'all' }}
                >
                  {value}
                </Code>
                <CopyButton value={value}>
                  {({ copied, copy }) => (
                    <Button variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} onClick={copy}>
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          ))}
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
