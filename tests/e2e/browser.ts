import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, never a downloaded one; flags keep it quiet and offline-friendly in CI containers. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
