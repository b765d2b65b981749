// Benchmark, not a test: loads the release page cold N times in headless
// Chromium and prints the medians of the app's User Timing entries (building
// the page, `whichgpu:mount`; parsing and validating the offer snapshot,
// `whichgpu:parse-offers`; the first ranking, `whichgpu:rank`) and of the
// time from navigation start to the first full result on screen: when the
// browser paints the offers table's caption (Element Timing, the
// caption's `elementtiming` attribute), which shows in the same frame as
// the memory bar, the advice and the first page of ranked rows.
//   node tests/e2e/bench-snapshot.mjs [runs]
import { serveDist, launchBrowser, WhichGpuPage } from './harness.mjs';

const runs = Number(process.argv[2] ?? 5);
const browser = await launchBrowser();
const server = await serveDist();
const measures = { mount: [], 'parse-offers': [], rank: [] };
const firstResult = [];
for (let i = 0; i < runs; i++) {
  const app = await WhichGpuPage.open(browser, server.url);
  // Polled with plain evaluations: Playwright's locators would inject their
  // script into the page while it loads and slow it down.
  for (let waited = 0; !(await app.page.evaluate(() => !!document.querySelector('[data-testid=offer-row]'))); waited += 50) {
    if (waited > 15000) throw new Error('no result row after 15 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Element Timing entries are only delivered to observers (buffered).
  const painted = await app.page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entry = list.getEntries().find((e) => e.identifier === 'offers-caption');
          if (entry) resolve(entry.renderTime || entry.loadTime);
        }).observe({ type: 'element', buffered: true });
      }),
  );
  firstResult.push(Math.round(painted));
  for (const [name, durations] of Object.entries(measures)) {
    durations.push(await app.page.evaluate((name) => performance.getEntriesByName(`whichgpu:${name}`)[0]?.duration ?? NaN, name));
  }
  await app.page.context().close();
}
await browser.close();
await server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const said = { mount: 'building the page (mount)', 'parse-offers': 'snapshot parse + validate', rank: 'first ranking' };
for (const [name, durations] of Object.entries(measures)) {
  console.log(`${said[name]} in Chromium: median ${median(durations).toFixed(1)} ms over ${runs} cold loads (all: ${durations.map((x) => x.toFixed(1)).join(', ')})`);
}
console.log(`navigation start to the first result painted, on loopback: median ${median(firstResult)} ms over ${runs} cold loads (all: ${firstResult.join(', ')})`);
