import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
export const chromiumPath = CANDIDATES.find((p) => existsSync(p));
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.artifacts/screenshots');

if (!chromiumPath) {
  console.error('\n*** End-to-end tests need Chromium: apt-get install -y chromium (or set CHROMIUM_PATH). ***\n');
}

/** Debian's Chromium driven by playwright-core (nothing downloads a browser here). */
export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error('Chromium not found: apt-get install -y chromium');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
