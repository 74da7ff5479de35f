/** Is the key meant for a text field (or a control that uses keys itself)? */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el?.closest?.(
    'input, textarea, select, [contenteditable="true"], [role="menu"], [role="dialog"], [role="combobox"]',
  );
}

/** Enter and Space on a button or link press it: the queue's Enter (open) must not take them. */
export function pressing(event: React.KeyboardEvent): boolean {
  if (event.key !== 'Enter' && event.key !== ' ') return false;
  return !!(event.target as HTMLElement | null)?.closest?.('button, a[href]');
}
