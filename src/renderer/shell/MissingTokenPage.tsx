import { Center, Code, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { AppMark } from '../components/icons';

/** Browser mode without its per-run token: nothing can be called, so explain how to open the app properly. */
export function MissingTokenPage() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="md" p="xl" maw={560} component="main">
        <Stack gap="md">
          <ThemeIcon size={44} radius="md" variant="light">
            <AppMark size={26} />
          </ThemeIcon>
          <Title order={1} size="h3">
            Open Mentor Admin from the address it printed
          </Title>
          <Text>
            This page needs the one-time address that <Code>npm run web</Code> prints in its terminal. It ends with a
            secret token, like this:
          </Text>
          <Code block>http://127.0.0.1:PORT/?token=…</Code>
          <Text size="sm" c="dimmed">
            Copy the whole address from the terminal into this browser. The token changes every time the app starts, so
            an old link or bookmark will not work.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
