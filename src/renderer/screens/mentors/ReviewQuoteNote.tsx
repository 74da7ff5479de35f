import { Alert, Button, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { dropQuote, quoteFor, quoteText } from '../../lib/reviewQuote';

/** Finds the settings form's "Safety prompt" box once it is drawn, and brings it into view with the cursor in it. */
function focusSafetyPrompt(): boolean {
  const label = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith('Safety prompt'));
  const box = label?.htmlFor ? document.getElementById(label.htmlFor) : null;
  if (!box) return false;
  box.scrollIntoView({ block: 'center' });
  box.focus();
  return true;
}

/** The review item an admin came to adjust this mentor for, quoted above its settings. */
export function ReviewQuoteNote({ mentor }: { mentor: string }) {
  const [quote, setQuote] = useState(() => quoteFor(mentor));
  useEffect(() => {
    if (!quote) return;
    // The settings load after the tab opens: look for the box a few times.
    let tries = 0;
    const timer = setInterval(() => {
      if (focusSafetyPrompt() || ++tries > 40) clearInterval(timer);
    }, 150);
    return () => clearInterval(timer);
  }, [quote]);
  if (!quote) return null;
  return (
    <Alert color="orange" variant="light" title="From the review queue" data-testid="review-quote">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {quoteText(quote)}
      </Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" variant="default" onClick={() => void navigator.clipboard?.writeText(quoteText(quote))}>
          Copy the quote
        </Button>
        <Button
          size="xs"
          variant="subtle"
          onClick={() => {
            dropQuote();
            setQuote(null);
          }}
        >
          Dismiss
        </Button>
      </Group>
    </Alert>
  );
}
