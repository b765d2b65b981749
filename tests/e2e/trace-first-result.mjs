// Research, not a test (issue 38): where the main thread's time goes from
// navigation start to the first full result, from Chromium's performance
// trace (what DevTools records) of N cold loads of the release page on
// loopback. Prints, per trace event name, the median over the loads of the
// milliseconds the renderer's main thread spent in such events that ended
// before the first result painted (events nest: a FunctionCall holds the
// wasm compiles it triggered, so the rows overlap; RunTask is the total),
// and how many such events (wasm.CompileBaseline: the WebAssembly functions
// Liftoff compiled on their first call).
//   node tests/e2e/trace-first-result.mjs [runs] [query]
import { serveDist, launchBrowser, WhichGpuPage, coldLoadTimings, median } from './harness.mjs';

const runs = Number(process.argv[2] ?? 5);
const query = process.argv[3] ?? '';
const CATEGORIES = [
  'devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'disabled-by-default-v8.wasm.detailed',
  'disabled-by-default-devtools.timeline',
];
const browser = await launchBrowser();
const server = await serveDist();
const perLoad = [];
const firstResults = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await browser.startTracing(page, { categories: CATEGORIES });
  const app = new WhichGpuPage(page);
  await app.page.goto(`${server.url}${query}`);
  // The page's own first result: a plain visit shows the copy drawn at build
  // time first (scripts/prerender.mjs), and the page's work is after it.
  const { pageResult: firstResult } = await coldLoadTimings(app.page);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  await context.close();
  const events = trace.traceEvents ?? trace;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' &&
    events.some((n) => n.pid === e.pid && n.name === 'navigationStart'));
  const start = main && events.find((e) => e.name === 'navigationStart' && e.pid === main.pid)?.ts;
  if (start === undefined) {
    console.log('this load\'s trace names no renderer main thread with a navigation start: left out');
    continue;
  }
  const end = start + firstResult * 1000;
  const sums = new Map();
  const counts = new Map();
  for (const e of events) {
    if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || e.ts < start || e.ts + e.dur > end) continue;
    sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
    counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  }
  perLoad.push({ sums, counts });
  firstResults.push(firstResult);
}
await browser.close();
await server.close();
if (perLoad.length === 0) {
  console.log('no load gave a usable trace');
  process.exit(0);
}
const names = new Set(perLoad.flatMap(({ sums }) => [...sums.keys()]));
const rows = [...names]
  .map((name) => [
    name,
    median(perLoad.map(({ sums }) => sums.get(name) ?? 0)),
    median(perLoad.map(({ counts }) => counts.get(name) ?? 0)),
  ])
  .filter(([, ms]) => ms >= 1)
  .sort((a, b) => b[1] - a[1]);
console.log(`the page's own first result painted: median ${median(firstResults)} ms over ${runs} cold loads (all: ${firstResults.join(', ')})`);
console.log('main-thread time before it, by trace event (median ms and events over the loads; nested rows overlap):');
for (const [name, ms, count] of rows.slice(0, 30)) console.log(`  ${ms.toFixed(1).padStart(8)} ms ${String(count).padStart(6)}×  ${name}`);
