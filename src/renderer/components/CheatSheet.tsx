import { Kbd, Modal, Table } from '@mantine/core';

/** A screen's keyboard shortcuts in a modal (opened with ?). */
export function CheatSheet({
  opened,
  onClose,
  shortcuts,
}: {
  opened: boolean;
  onClose(): void;
  /** The screen's keys and what each does. */
  shortcuts: readonly [keys: string[], what: string][];
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="md">
      <Table verticalSpacing={4} aria-label="Keyboard shortcuts">
        <Table.Tbody>
          {shortcuts.map(([keys, what]) => (
            <Table.Tr key={`${keys.join('+')} ${what}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && (keys[0] === 'g' ? ' then ' : ' + ')}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
