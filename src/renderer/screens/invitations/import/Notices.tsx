import { Alert, List } from '@mantine/core';

/** What the engine wants the admin to know about the file (ignored columns, ragged rows, checks that failed). */
export function Notices({ notices }: { notices: string[] }) {
  if (!notices.length) return null;
  return (
    <Alert color="yellow" title="Good to know" data-testid="import-notices">
      <List size="sm" spacing={2}>
        {notices.map((notice) => (
          <List.Item key={notice}>{notice}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
