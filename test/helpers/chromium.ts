/**
 * Tests in a real headless Chromium (Debian's, driven by playwright-core): a describe block that
 * opens the browser before its tests and closes it after, skipped (and said so) only where
 * /usr/bin/chromium is absent; CI installs it.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe } from "vitest";

const CHROMIUM = "/usr/bin/chromium";

/** `body` declares the tests; `browser()` answers the open browser inside them. */
export function describeInChromium(title: string, body: (browser: () => Browser) => void): void {
  const present = existsSync(CHROMIUM);
  if (!present) console.warn(`Skipping "${title}": ${CHROMIUM} is absent (CI installs chromium).`);
  describe.skipIf(!present)(`${title} (needs ${CHROMIUM})`, () => {
    let open: Browser | undefined;
    beforeAll(async () => {
      open = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    });
    afterAll(async () => {
      await open?.close();
    });
    body(() => {
      if (!open) throw new Error("Chromium is not open");
      return open;
    });
  });
}
