import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { menuTemplate } from '../../src/main/electron/menu';

function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

describe('menuTemplate', () => {
  it('has no developer tools or reload in production', () => {
    for (const isMac of [false, true]) {
      const all = roles(menuTemplate({ isMac, dev: false }));
      expect(all).not.toContain('toggleDevTools');
      expect(all).not.toContain('reload');
      expect(all).not.toContain('forceReload');
      expect(all).toEqual(expect.arrayContaining(['editMenu', 'windowMenu', 'zoomIn', 'zoomOut', 'resetZoom']));
    }
  });

  it('offers developer tools in development', () => {
    expect(roles(menuTemplate({ isMac: false, dev: true }))).toContain('toggleDevTools');
  });

  it('follows platform conventions for the app menu and quitting', () => {
    expect(roles(menuTemplate({ isMac: true, dev: false }))).toEqual(expect.arrayContaining(['appMenu', 'close']));
    const other = roles(menuTemplate({ isMac: false, dev: false }));
    expect(other).toContain('quit');
    expect(other).not.toContain('appMenu');
  });
});
