// Benchmark, not a test (issue 22): what a visitor waits for. Loads the
// release page cold N times (9 by default; a fresh browser context each
// time, so an empty cache and no service worker) under a throttled profile
// set through the Chrome DevTools Protocol: the CPU slowed 4×
// (Emulation.setCPUThrottlingRate, DevTools' "4× slowdown") and a
// 10 Mbit/s link with 40 ms of latency both ways
// (Network.emulateNetworkConditions). dist/ is served on loopback as GitHub
// Pages serves it, gzip included (serveDist's `likePages`), so the bytes on
// the emulated link are the ones a visitor downloads. Prints the median and
// range of the time from navigation start to the first full result painted
// (the same signal as bench-snapshot.mjs, coldLoadTimings in harness.mjs),
// of the app's own phases, and the bytes transferred until the first result.
//   node tests/e2e/bench-throttled.mjs [runs] [query] [viewport]
// A query ('?lang=es', a shared link) times that page instead of the
// address's; a viewport ('390x844', a phone's) sizes the window
// (Playwright's 1280×720 otherwise).
import { serveDist, launchBrowser, coldLoadTimings, LOAD_MEASURES, median } from './harness.mjs';

const runs = Number(process.argv[2] ?? 9);
const query = process.argv[3] ?? '';
const [width, height] = (process.argv[4] ?? '1280x720').split('x').map(Number);
const CPU_SLOWDOWN = 4;
const LINK = { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 };

const browser = await launchBrowser();
const server = await serveDist({ likePages: true });
const loads = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', LINK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  // What came over the link, headers included, for the page's requests.
  const transferred = new Map();
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => transferred.set(requestId, encodedDataLength));
  await page.goto(`${server.url}${query}`);
  const load = await coldLoadTimings(page);
  load.bytes = [...transferred.values()].reduce((sum, bytes) => sum + bytes, 0);
  load.requests = transferred.size;
  loads.push(load);
  await context.close();
}
await browser.close();
await server.close();

const summary = (xs, digits = 0) => {
  const f = (x) => x.toFixed(digits);
  return `median ${f(median(xs))} ms, range ${f(Math.min(...xs))}–${f(Math.max(...xs))} ms`;
};
const profile = `CPU ${CPU_SLOWDOWN}× slower, ${LINK.downloadThroughput * 8 / 1e6} Mbit/s, ${LINK.latency} ms latency, gzip, ${width}×${height}`;
for (const [name, said] of Object.entries(LOAD_MEASURES)) {
  console.log(`${said}, throttled: ${summary(loads.map((load) => load[name]), 1)}`);
}
const firstResult = loads.map((load) => load.firstResult);
console.log(`navigation start to the first result painted, throttled (${profile}): ${summary(firstResult)} over ${runs} cold loads (all: ${firstResult.join(', ')})`);
const pageResult = loads.map((load) => load.pageResult);
console.log(`navigation start to the page's own first result (it answers edits), throttled: ${summary(pageResult)} (all: ${pageResult.join(', ')})`);
const bytes = loads.map((load) => load.bytes);
console.log(`transferred until the page's own first result: median ${median(bytes)} bytes in ${median(loads.map((load) => load.requests))} requests (range ${Math.min(...bytes)}–${Math.max(...bytes)})`);
