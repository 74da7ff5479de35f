/**
 * The installers' and the shell's icons: every file and folder electron-builder.yml names exists in the format its
 * target reads (PNG, ICNS, ICO) at the sizes it needs, and the icons the shell loads at run time are where the
 * packaged app (extraResources) and the unpackaged one look for them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { shellIcons } from '../../src/main/electron/paths';

const root = resolve(import.meta.dirname, '../..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const directories = config.directories as { buildResources: string; output: string };
const buildResources = join(root, directories.buildResources);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width, height and colour type of a PNG (its IHDR chunk). */
function pngInfo(bytes: Buffer): { width: number; height: number; alpha: boolean } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG signature').toBe(true);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  const colourType = bytes[25]!;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), alpha: colourType === 6 || colourType === 4 };
}

/** The entries of an ICNS file: OSType → bytes. */
function icnsEntries(bytes: Buffer): Map<string, Buffer> {
  expect(bytes.toString('latin1', 0, 4)).toBe('icns');
  expect(bytes.readUInt32BE(4), 'the length in the header is the file size').toBe(bytes.length);
  const entries = new Map<string, Buffer>();
  for (let at = 8; at < bytes.length;) {
    const type = bytes.toString('latin1', at, at + 4);
    const length = bytes.readUInt32BE(at + 4);
    expect(length, `entry ${type}`).toBeGreaterThanOrEqual(8);
    entries.set(type, bytes.subarray(at + 8, at + length));
    at += length;
  }
  return entries;
}

/** The images of an ICO file: their sizes, each PNG or BMP data within the file. */
function icoImages(bytes: Buffer): { width: number; height: number; png: boolean }[] {
  expect(bytes.readUInt16LE(0), 'reserved').toBe(0);
  expect(bytes.readUInt16LE(2), 'type 1: icon').toBe(1);
  const count = bytes.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const entry = 6 + index * 16;
    const size = bytes.readUInt32LE(entry + 8);
    const offset = bytes.readUInt32LE(entry + 12);
    expect(offset + size).toBeLessThanOrEqual(bytes.length);
    const data = bytes.subarray(offset, offset + size);
    const png = data.subarray(0, 8).equals(PNG_SIGNATURE);
    const width = bytes[entry]! || 256;
    const height = bytes[entry + 1]! || 256;
    if (png) expect(pngInfo(data)).toMatchObject({ width, height });
    else expect(data.readUInt32LE(0), 'a BITMAPINFOHEADER').toBe(40);
    return { width, height, png };
  });
}

/** electron-builder looks for a target's icon in buildResources first, then in the project folder. */
function builderPath(name: string): string {
  const inResources = join(buildResources, name);
  return existsSync(inResources) ? inResources : join(root, name);
}

const ICNS_SIZES: Record<string, number> = {
  ic07: 128,
  ic08: 256,
  ic09: 512,
  ic10: 1024,
  ic11: 32,
  ic12: 64,
  ic13: 256,
  ic14: 512,
};

describe('electron-builder.yml names only files that exist, in the format each target reads', () => {
  it('has its buildResources folder with the 1024×1024 source icon and the vector it is drawn from', () => {
    expect(statSync(buildResources).isDirectory()).toBe(true);
    expect(pngInfo(readFileSync(join(buildResources, 'icon.png')))).toEqual({ width: 1024, height: 1024, alpha: true });
    expect(readFileSync(join(buildResources, 'icon.svg'), 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 1024 1024"/);
  });

  it('gives macOS an ICNS with every size from 16 to 1024 px, PNG entries at their stated sizes', () => {
    const mac = config.mac as { icon: string };
    const entries = icnsEntries(readFileSync(builderPath(mac.icon)));
    for (const [type, size] of Object.entries(ICNS_SIZES)) {
      const data = entries.get(type);
      expect(data, `${type} (${size} px)`).toBeDefined();
      expect(pngInfo(data!)).toMatchObject({ width: size, height: size });
    }
    // 16 and 32 px as PNG (ic04, ic05) or as the older ARGB entries.
    expect(entries.has('ic04') || entries.has('is32')).toBe(true);
    expect(entries.has('ic05') || entries.has('il32')).toBe(true);
  });

  it('gives Windows an ICO with 16 to 256 px images', () => {
    const win = config.win as { icon: string };
    const images = icoImages(readFileSync(builderPath(win.icon)));
    const sizes = images.map((image) => image.width).sort((a, b) => a - b);
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 128, 256]));
    expect(images.every((image) => image.width === image.height)).toBe(true);
  });

  it('gives Linux a folder of NxN.png files, each the size its name says, 16 to 512 px', () => {
    const linux = config.linux as { icon: string };
    const folder = builderPath(linux.icon);
    expect(statSync(folder).isDirectory()).toBe(true);
    const files = readdirSync(folder);
    const sizes = files.map((file) => {
      const match = /^(\d+)x(\d+)\.png$/.exec(file);
      expect(match, `${file} is named NxN.png`).not.toBeNull();
      expect(pngInfo(readFileSync(join(folder, file)))).toEqual({
        width: Number(match![1]),
        height: Number(match![2]),
        alpha: true,
      });
      return Number(match![1]);
    });
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 128, 256, 512]));
  });

  it('copies existing folders with extraResources, and names no other file that is missing', () => {
    const extra = config.extraResources as { from: string; to: string }[];
    expect(extra.length).toBeGreaterThan(0);
    for (const { from } of extra) expect(existsSync(join(root, from)), from).toBe(true);
    // Any other icon, background or entitlements file a target may name later must exist too.
    const named: string[] = [];
    const walk = (value: unknown, key: string) => {
      if (typeof value === 'string' && /icon|background|entitlements|license|sidebar|header/i.test(key)) {
        named.push(value);
      } else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) walk(v, Array.isArray(value) ? key : k);
      }
    };
    walk(config, '');
    expect(named.length).toBeGreaterThanOrEqual(3);
    for (const name of named) expect(existsSync(builderPath(name)), name).toBe(true);
  });
});

describe("the shell's icons", () => {
  const platforms = ['linux', 'win32', 'darwin'] as const;

  it('are found in the project when unpackaged: a PNG window icon on Linux, an ICO on Windows, and PNG notes', () => {
    for (const platform of platforms) {
      const icons = shellIcons({ isPackaged: false, appPath: root, resourcesPath: '/nowhere', platform });
      for (const path of [icons.window, icons.notification, icons.dock]) {
        if (path) expect(existsSync(path), `${platform}: ${path}`).toBe(true);
      }
    }
    const linux = shellIcons({ isPackaged: false, appPath: root, resourcesPath: '/nowhere', platform: 'linux' });
    expect(pngInfo(readFileSync(linux.window!))).toEqual({ width: 512, height: 512, alpha: true });
    expect(pngInfo(readFileSync(linux.notification!))).toEqual({ width: 256, height: 256, alpha: true });
    const windows = shellIcons({ isPackaged: false, appPath: root, resourcesPath: '/nowhere', platform: 'win32' });
    expect(icoImages(readFileSync(windows.window!)).map((image) => image.width)).toContain(256);
    // macOS shows the bundle's icon for windows and notifications; only the unpackaged Dock needs one.
    const mac = shellIcons({ isPackaged: false, appPath: root, resourcesPath: '/nowhere', platform: 'darwin' });
    expect(mac.window).toBeUndefined();
    expect(mac.dock).toBeDefined();
  });

  it('are where extraResources puts them in a packaged app', () => {
    const resourcesPath = '/opt/Mentor Admin/resources';
    const extra = config.extraResources as { from: string; to: string }[];
    for (const platform of platforms) {
      const icons = shellIcons({ isPackaged: true, appPath: `${resourcesPath}/app.asar`, resourcesPath, platform });
      for (const path of [icons.window, icons.notification, icons.dock]) {
        if (!path) continue;
        // Back from the packaged path to the project file electron-builder copies there.
        const inResources = relative(resourcesPath, path);
        const copied = extra.find(({ to }) => inResources.startsWith(`${to}/`));
        expect(copied, `${platform}: ${inResources} is copied by extraResources`).toBeDefined();
        const source = join(root, copied!.from, relative(copied!.to, inResources));
        expect(existsSync(source), source).toBe(true);
      }
    }
  });
});
