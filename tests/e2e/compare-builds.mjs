// Benchmark, not a test (issue 38): two builds of the page side by side.
// Cold loads alternate between them (A then B, then B then A, so neither
// always goes first on a machine whose load drifts), each in a fresh
// browser context, each build from its own loopback server that gzips as
// GitHub Pages does. Prints, per build, the median time to the first
// result painted and to the page's own (coldLoadTimings: a plain visit
// opens on the copy drawn at build time) and of the load's phases: the module's
// download, from it to the page being built (compiling, instantiating,
// reading the catalog, and that reading alone), building the page, parsing the offers, the first
// ranking, and from it to the page's own first result painted. A change's effect on
// this machine is the difference between two medians of one run; medians
// of separate runs differ by 10% or more on a shared 2-core machine.
//   node tests/e2e/compare-builds.mjs <dist A> <dist B> [pairs] [throttled|loopback] [query] [viewport]
// `throttled`: the CPU 4× slower and a 10 Mbit/s link with 40 ms latency,
// as bench-throttled.mjs. A query ('?lang=es', a shared link) loads that
// page instead of the address; a viewport ('390x844', a phone's) sizes the
// window (Playwright's 1280×720 otherwise).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { launchBrowser, coldLoadTimings, median } from './harness.mjs';

const [a, b, pairs = '15', mode = 'loopback', query = '', size] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: node tests/e2e/compare-builds.mjs <dist A> <dist B> [pairs] [throttled|loopback] [query] [viewport]');
const [width, height] = (size ?? '1280x720').split('x').map(Number);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };

function serve(dir) {
  const gzipped = new Map();
  const server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname).slice(1) || 'index.html');
    if (!file.startsWith(path.resolve(dir)) || !fs.existsSync(file)) return res.writeHead(404).end();
    if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(fs.readFileSync(file)));
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-encoding': 'gzip' });
    res.end(gzipped.get(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, server })));
}

const builds = [path.resolve(a), path.resolve(b)];
const servers = await Promise.all(builds.map(serve));
const browser = await launchBrowser();
const phases = [{}, {}];
for (let i = 0; i < Number(pairs); i++) {
  for (const k of i % 2 ? [1, 0] : [0, 1]) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    if (mode === 'throttled') {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 });
    }
    await page.goto(servers[k].url + query);
    const { firstResult, pageResult } = await coldLoadTimings(page);
    const load = await page.evaluate(() => {
      const measure = (name) => performance.getEntriesByName(`whichgpu:${name}`)[0];
      const module = performance.getEntriesByType('resource').find((r) => r.name.endsWith('_bg.wasm'));
      const [catalog, mount, parse, rank] = ['parse-catalog', 'mount', 'parse-offers', 'rank'].map(measure);
      return {
        'module downloaded': module.responseEnd,
        'to the page built': mount.startTime - module.responseEnd,
        'of which the catalog': catalog?.duration ?? NaN,
        'building the page': mount.duration,
        'parsing the offers': parse.duration,
        'first ranking': rank.duration,
        'to the first result': 0,
        rankEnd: rank.startTime + rank.duration,
      };
    });
    load['to the first result'] = pageResult - load.rankEnd;
    delete load.rankEnd;
    for (const [name, ms] of Object.entries({ 'first result': firstResult, "the page's own": pageResult, ...load })) (phases[k][name] ??= []).push(ms);
    await context.close();
  }
}
await browser.close();
servers.forEach(({ server }) => server.close());
console.log(`${pairs} pairs of cold loads of ${query || 'the address'} at ${width}×${height}${mode === 'throttled' ? ', throttled (CPU 4×, 10 Mbit/s, 40 ms)' : ', loopback'}; medians in ms`);
for (const name of Object.keys(phases[0])) {
  const [ma, mb] = phases.map((p) => median(p[name]));
  console.log(`${name.padEnd(22)} ${ma.toFixed(0).padStart(6)} ${mb.toFixed(0).padStart(6)}  (${mb - ma >= 0 ? '+' : ''}${(mb - ma).toFixed(0)})`);
}
console.log(`A: ${builds[0]}\nB: ${builds[1]}`);
