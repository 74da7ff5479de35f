import { Alert, List, Spoiler } from '@mantine/core';

/**
 * What the engine wants the admin to know about the file (ignored columns, ragged rows, doubts about a column, checks
 * that failed). Long lists fold, so the rows stay in view on a small window.
 */
export function Notices({ notices }: { notices: string[] }) {
  if (!notices.length) return null;
  return (
    <Alert color="yellow" title="Good to know" data-testid="import-notices" py="xs">
      <Spoiler maxHeight={64} showLabel="Show all notes" hideLabel="Show fewer notes">
        <List size="sm" spacing={2}>
          {notices.map((notice) => (
            <List.Item key={notice}>{notice}</List.Item>
          ))}
        </List>
      </Spoiler>
    </Alert>
  );
}
