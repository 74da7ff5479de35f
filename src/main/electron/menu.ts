/**
 * The application menu: standard roles only (so copy/paste and zoom work everywhere), developer tools and
 * reload only in development. Returns a template; `main.ts` builds it. Only types come from `electron`.
 */
import type { MenuItemConstructorOptions } from 'electron';

export function menuTemplate(options: { isMac: boolean; dev: boolean }): MenuItemConstructorOptions[] {
  const { isMac, dev } = options;
  const developer: MenuItemConstructorOptions[] = dev
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }]
    : [];
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    { label: 'File', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...developer,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
}
