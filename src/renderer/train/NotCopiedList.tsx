import { Alert, List, Text } from '@mantine/core';
import { WarningIcon } from '../components/icons';
import type { NotCopied } from '../bridge/types';
import { plural } from '../lib/format';

const SHOWN = 8;

/** Browser mode: what the page left behind when it copied the files to Mentor Admin, and why. */
export function NotCopiedList({ items }: { items: NotCopied[] }) {
  return (
    <Alert
      color="gray"
      variant="light"
      icon={<WarningIcon />}
      title={`${plural(items.length, 'item')} not copied from the browser`}
    >
      <List size="sm" spacing={2}>
        {items.slice(0, SHOWN).map((item) => (
          <List.Item key={item.relativePath}>
            <Text span size="sm" ff="monospace">
              {item.relativePath}
            </Text>{' '}
            <Text span size="sm" c="dimmed">
              — {item.reason}
            </Text>
          </List.Item>
        ))}
      </List>
      {items.length > SHOWN && (
        <Text size="xs" c="dimmed" mt={4}>
          and {plural(items.length - SHOWN, 'more item')}
        </Text>
      )}
    </Alert>
  );
}
