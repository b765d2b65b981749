// Reference pictures (issue 7): the page at 360 px and 1440 px, in the
// light and dark themes, for a person to look at. They live in
// tests/screenshots/ and are rewritten with UPDATE_SCREENSHOTS=1; a normal
// run writes fresh ones to target/screenshots/ and checks they match the
// references' size, that nothing scrolls sideways, and that each theme
// paints its own background.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, sharedBrowserAndServer } from './harness.mjs';

const env = sharedBrowserAndServer();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REFERENCES = path.join(root, 'tests/screenshots');
const FRESH = path.join(root, 'target/screenshots');
const update = process.env.UPDATE_SCREENSHOTS === '1';

/** The workload pictured: serving a 70B with AWQ to 16 users (advice, chart, badges). */
const QUERY = '?model=llama-3.1-70b&wq=awq&conc=16';
/** The visitor's clock: 90 days after the snapshot's date, so the pictures
 * show the prices' age above the results (issue 27) whatever day they are taken. */
const [year, month, day] = JSON.parse(await fs.readFile(path.join(DIST, 'data/offers.json'), 'utf8')).snapshot_date.split('-').map(Number);
const CLOCK = new Date(Date.UTC(year, month - 1, day || 1) + 90 * 86_400_000);
/** The page's --bg in each theme (style/main.css). */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(15, 20, 25)' };

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes) {
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

for (const width of [360, 1440]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`the page at ${width} px in the ${colorScheme} theme`, async () => {
      const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      const page = await context.newPage();
      await page.clock.setFixedTime(CLOCK);
      await page.goto(env.server.url + QUERY);
      await page.getByTestId('offer-row').first().waitFor();
      await page.getByTestId('cost-chart').waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width);
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), BACKGROUND[colorScheme]);
      const name = `${width}-${colorScheme}.png`;
      const picture = await page.screenshot({ fullPage: true, animations: 'disabled' });
      await fs.mkdir(update ? REFERENCES : FRESH, { recursive: true });
      await fs.writeFile(path.join(update ? REFERENCES : FRESH, name), picture);
      // The committed reference has the same width and about the same
      // height: a layout that grew or collapsed shows here.
      const reference = pngSize(await fs.readFile(path.join(REFERENCES, name)));
      const fresh = pngSize(picture);
      assert.equal(fresh.width, reference.width, name);
      assert.ok(Math.abs(fresh.height - reference.height) <= reference.height * 0.05, `${name}: ${fresh.height} px tall, reference ${reference.height} px`);
      await context.close();
    });
  }
}
