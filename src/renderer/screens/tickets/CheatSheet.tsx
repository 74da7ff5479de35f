import { Kbd, Modal, Table } from '@mantine/core';

export const SHORTCUTS: [keys: string[], what: string][] = [
  [['j'], 'Next ticket'],
  [['k'], 'Previous ticket'],
  [['Enter'], 'Open the ticket'],
  [['o'], 'Open the ticket'],
  [['r'], 'Reply (the reply box takes focus)'],
  [['Ctrl', 'Enter'], 'Send the reply'],
  [['Esc'], 'Back to the list'],
  [['e'], 'Close (selected tickets, or this one) and go to the next'],
  [['i'], 'Set in progress'],
  [['Shift', 'O'], 'Reopen'],
  [['z'], 'Undo the last close, reopen or in progress'],
  [['x'], 'Select for bulk actions'],
  [['a'], 'Claim / unclaim (local only)'],
  [['u'], 'Mark unread / read (marked unread, the open ticket is put away)'],
  [['/'], 'Search'],
  [['g', 'o'], 'Go to Open'],
  [['g', 'p'], 'Go to In progress'],
  [['g', 'c'], 'Go to Closed'],
  [['g', 'a'], 'Go to All'],
  [['g', 'm'], 'Go to Mine'],
  [['?'], 'This cheat sheet'],
];

export function CheatSheet({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="md">
      <Table verticalSpacing={4} aria-label="Keyboard shortcuts">
        <Table.Tbody>
          {SHORTCUTS.map(([keys, what]) => (
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
