import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronNativeBindingPath, rendererEntry } from '../../src/main/electron/paths';

describe('electronNativeBindingPath', () => {
  it('uses the project folder in development', () => {
    expect(electronNativeBindingPath('/work/app')).toBe(join('/work/app', 'native', 'electron', 'better_sqlite3.node'));
  });

  it('uses app.asar.unpacked in a packaged app, since a .node cannot load from inside the archive', () => {
    expect(electronNativeBindingPath('/opt/Mentor Admin/resources/app.asar')).toBe(
      join('/opt/Mentor Admin/resources/app.asar.unpacked', 'native', 'electron', 'better_sqlite3.node'),
    );
  });

  it('uses the app folder of a packaged app built without asar', () => {
    expect(electronNativeBindingPath('/opt/Mentor Admin/resources/app')).toBe(
      join('/opt/Mentor Admin/resources/app', 'native', 'electron', 'better_sqlite3.node'),
    );
  });
});

describe('rendererEntry', () => {
  const rendererDir = '/work/app/out/renderer';
  const fileEntry = { kind: 'app', dir: rendererDir, url: 'app://renderer/index.html' };

  it('loads the built index.html from the app:// protocol (never file://) by default', () => {
    expect(rendererEntry({ isPackaged: true, rendererDir })).toEqual(fileEntry);
    expect(rendererEntry({ isPackaged: false, rendererDir })).toEqual(fileEntry);
  });

  it('uses the loopback dev server in development', () => {
    expect(rendererEntry({ isPackaged: false, devServerUrl: 'http://localhost:5173', rendererDir })).toEqual({
      kind: 'url',
      url: 'http://localhost:5173/',
    });
  });

  it('ignores the dev-server variable in a packaged app', () => {
    expect(rendererEntry({ isPackaged: true, devServerUrl: 'http://localhost:5173', rendererDir })).toEqual(fileEntry);
  });

  it.each([
    'https://evil.example',
    'http://localhost.evil.example:5173',
    'http://10.0.0.5:5173',
    'file:///tmp/x.html',
    'junk',
  ])('ignores a dev-server variable that is not loopback http: %s', (devServerUrl) => {
    expect(rendererEntry({ isPackaged: false, devServerUrl, rendererDir })).toEqual(fileEntry);
  });
});
