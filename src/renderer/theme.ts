import {
  Autocomplete,
  Badge,
  createTheme,
  defaultCssVariablesResolver,
  localStorageColorSchemeManager,
  Modal,
  MultiSelect,
  Notification,
  Select,
  TagsInput,
  Title,
  type CSSVariablesResolver,
} from '@mantine/core';
import { DARK_GRAY_LIGHT, DARK_YELLOW_LIGHT } from './theme-colors';

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
    // Headings in the strong text colour: the body's in light (black), white in dark, where Mantine leaves them in
    // the body's gray (dark 0) and a page's title read as dimmed as its text.
    Title: Title.extend({ defaultProps: { c: 'bright' } }),
    // Labels are in sentence case everywhere, badges included (Mantine writes them in capitals by default).
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
    // Mantine's close buttons are icon-only and unlabelled by default; screen readers need a name.
    Modal: Modal.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } },
    }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } }),
    // A list opens on a click, ArrowDown or typing, never because Tab passed through its field: opened on focus (as
    // Mantine does by default), it covered the next fields of a form in a small window while the keyboard moved on.
    Autocomplete: Autocomplete.extend({ defaultProps: { openOnFocus: false } }),
    MultiSelect: MultiSelect.extend({ defaultProps: { openOnFocus: false } }),
    Select: Select.extend({ defaultProps: { openOnFocus: false } }),
    TagsInput: TagsInput.extend({ defaultProps: { openOnFocus: false } }),
  },
});

/**
 * Mantine 9 draws the text of `light`, `subtle` and `transparent` controls in the dark scheme with shade 0 of their
 * colour, which is nearly white: a red delete icon or an indigo "Sync now" lost its colour. The dark scheme uses
 * shade 4 instead (the shade Mantine already uses for coloured text there), so actions keep their meaning.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolvedTheme) => {
  const variables = defaultCssVariablesResolver(resolvedTheme);
  const darkActionText = Object.fromEntries(
    Object.keys(resolvedTheme.colors).map((name) => [
      `--mantine-color-${name}-light-color`,
      `var(--mantine-color-${name}-4)`,
    ]),
  );
  return { ...variables, dark: { ...variables.dark, ...darkActionText, ...DARK_GRAY_LIGHT, ...DARK_YELLOW_LIGHT } };
};

/** The engine's `settings.theme` is the truth; this copy only avoids a flash of the wrong scheme at start. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mentor-admin-color-scheme' });
