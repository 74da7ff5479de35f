#!/usr/bin/env node
/**
 * `npm run icons`: renders resources/icon.svg into every icon the packages and the shell need, and writes them into
 * resources/ (electron-builder's buildResources) where they are committed:
 *
 *   icon.png                 1024×1024, the source size electron-builder asks for
 *   icon.icns                macOS (16–1024 px, drawn on Apple's icon grid: 824 px body with a soft shadow)
 *   icon.ico                 Windows (16, 24, 32, 48, 64, 128, 256 px)
 *   icons/NxN.png            Linux (16–512 px; electron-builder reads the size from the name)
 *   shell/window.png|ico     the window's icon (Linux, Windows), copied beside the app by `extraResources`
 *   shell/notification.png   the desktop notifications' icon
 *
 * Each size is drawn from the vector source by Chromium (playwright-core with the system's Chromium; set CHROMIUM to
 * another binary), not scaled down from a bitmap. ICO and ICNS are put together by @shockpkg/icon-encoder.
 * Usage: node scripts/icons.mjs
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const { chromium } = require('playwright-core');
const { IconIco, IconIcns } = require('@shockpkg/icon-encoder');

const out = join(root, 'resources');
const source = readFileSync(join(out, 'icon.svg'), 'utf8');

const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entries (OSType → pixels), in iconutil's order. */
const ICNS_ENTRIES = [
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic04', 16],
  ['ic14', 512],
  ['ic09', 512],
  ['ic05', 32],
  ['ic10', 1024],
  ['ic11', 32],
];

/** The full-bleed icon at `size` px. */
const fullBleed = (size) => source.replace(/width="1024" height="1024"/, `width="${size}" height="${size}"`);

/** macOS draws every app icon on one grid: the body is 824 px of 1024, centred, with a shadow below it. */
const appleGrid = (
  size,
) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024" width="${size}" height="${size}">
  <defs><filter id="shadow" x="-10%" y="-10%" width="120%" height="130%">
    <feDropShadow dx="0" dy="10" stdDeviation="14" flood-color="#000" flood-opacity="0.3"/>
  </filter></defs>
  <g filter="url(#shadow)"><svg x="85" y="85" width="854" height="854" viewBox="0 0 1024 1024">${source
    .replace(/^[\s\S]*?<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')}</svg></g>
</svg>`;

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const render = async (svg, size) => {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    const png = await page.screenshot({ omitBackground: true, type: 'png' });
    await page.close();
    return png;
  };
  try {
    const write = (name, bytes) => {
      mkdirSync(dirname(join(out, name)), { recursive: true });
      writeFileSync(join(out, name), bytes);
      console.log(`resources/${name}`);
    };
    const full = new Map();
    for (const size of new Set([...LINUX_SIZES, ...ICO_SIZES, 1024]))
      full.set(size, await render(fullBleed(size), size));

    write('icon.png', full.get(1024));
    for (const size of LINUX_SIZES) write(`icons/${size}x${size}.png`, full.get(size));

    const ico = new IconIco();
    for (const size of [...ICO_SIZES].reverse()) await ico.addFromPng(full.get(size), null);
    const icoBytes = ico.encode();
    write('icon.ico', icoBytes);

    const icns = new IconIcns();
    icns.toc = true;
    for (const [type, size] of ICNS_ENTRIES) await icns.addFromPng(await render(appleGrid(size), size), [type]);
    write('icon.icns', icns.encode());

    write('shell/window.png', full.get(512));
    write('shell/window.ico', icoBytes);
    write('shell/notification.png', full.get(256));
  } finally {
    await browser.close();
  }
}

await main();
