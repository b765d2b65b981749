// Benchmark, not a test: loads the release page cold N times in headless
// Chromium and prints the medians of the app's User Timing entries (building
// the page, `whichgpu:mount`; parsing and validating the offer snapshot,
// `whichgpu:parse-offers`; the first ranking, `whichgpu:rank`) and of the
// time from navigation start to the first full result on screen (see
// coldLoadTimings in harness.mjs), on loopback at full speed.
// bench-throttled.mjs times the same load on a slower machine and network.
//   node tests/e2e/bench-snapshot.mjs [runs] [query]
// A query ('?lang=es', a shared link) times that page instead of the address's.
import { serveDist, launchBrowser, WhichGpuPage, coldLoadTimings, LOAD_MEASURES, median } from './harness.mjs';

const runs = Number(process.argv[2] ?? 5);
const query = process.argv[3] ?? '';
const browser = await launchBrowser();
const server = await serveDist();
const loads = [];
for (let i = 0; i < runs; i++) {
  const app = await WhichGpuPage.open(browser, `${server.url}${query}`);
  loads.push(await coldLoadTimings(app.page));
  await app.page.context().close();
}
await browser.close();
await server.close();
for (const [name, said] of Object.entries(LOAD_MEASURES)) {
  const durations = loads.map((load) => load[name]);
  console.log(`${said} in Chromium: median ${median(durations).toFixed(1)} ms over ${runs} cold loads (all: ${durations.map((x) => x.toFixed(1)).join(', ')})`);
}
const firstResult = loads.map((load) => load.firstResult);
console.log(`navigation start to the first result painted, on loopback: median ${median(firstResult)} ms over ${runs} cold loads (all: ${firstResult.join(', ')})`);
const pageResult = loads.map((load) => load.pageResult);
console.log(`navigation start to the page's own first result (it answers edits), on loopback: median ${median(pageResult)} ms (all: ${pageResult.join(', ')})`);
