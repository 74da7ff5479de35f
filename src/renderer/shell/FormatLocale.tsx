import { Fragment, type ReactNode } from 'react';
import { setFormatLocale } from '../lib/format';
import { useCall } from '../queries/useCall';

/**
 * Applies the date and number format chosen in Settings before anything below is drawn, and draws it all again when
 * the choice changes (formatters are plain functions, so a new locale needs a new render of every screen).
 */
export function FormatLocale({ children }: { children: ReactNode }) {
  const settings = useCall('settings.get', {});
  const locale = settings.data?.formatLocale ?? 'system';
  setFormatLocale(locale);
  return <Fragment key={locale}>{children}</Fragment>;
}
