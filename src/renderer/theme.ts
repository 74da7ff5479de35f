import { createTheme, localStorageColorSchemeManager, Modal, Notification } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  // Keyboard users always see where they are; mouse clicks do not leave rings behind.
  focusRing: 'auto',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  components: {
    // Mantine's close buttons are icon-only and unlabelled by default; screen readers need a name.
    Modal: Modal.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } },
    }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } }),
  },
});

/** The engine's `settings.theme` is the truth; this copy only avoids a flash of the wrong scheme at start. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mentor-admin-color-scheme' });
