// Offline after the first visit (issue 10): the service worker that
// scripts/post-build.mjs writes caches the page, its code and the offers, so
// with the server gone the page still opens, any link's workload included,
// with the offers of the last visit and their date.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, launchBrowser, serveDist, WhichGpuPage } from './harness.mjs';

test('the built service worker lists every file the page needs, as the page asks for it, under a cache named by their content', () => {
  const worker = readFileSync(path.join(DIST, 'sw.js'), 'utf8');
  const files = JSON.parse(worker.match(/const FILES = (\[.*\]);/)[1]);
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  // With their query: the catalog's URL carries its version.
  const referenced = [...html.matchAll(/(?:src|href)="(?!data:)\.?\/?([^"]+)"/g)].map((m) => `./${m[1]}`);
  assert.ok(referenced.some((file) => /^\.\/data\/catalog\.json\?v=[0-9a-f]{16}$/.test(file)), 'the versioned catalog');
  // The page's second module (issue 38) is fetched by its link script, not
  // named in the page: kept at install too, so that its parts draw offline.
  const later = readdirSync(DIST).filter((f) => /^later-[0-9a-f]{16}\.wasm$/.test(f)).map((f) => `./${f}`);
  assert.equal(later.length, 1, 'one second module in dist/');
  for (const file of ['./', './data/offers.json', ...referenced, ...later]) assert.ok(files.includes(file), file);
  // The page once: the worker answers ./index.html with ./ (below).
  assert.ok(!files.includes('./index.html'));
  assert.match(worker, /const CACHE = 'whichgpu-[0-9a-f]{16}';/);
  // Files named by their content are served from the cache first, whatever
  // digits their hash has: Trunk drops a hash's leading zeros.
  const immutable = new RegExp(worker.match(/if \(\/(.+)\/\.test\(key\)\)/)[1]);
  for (const name of ['./whichgpu-bdfc694304487bfe.js', './whichgpu-3e38b0e70ebc216_bg.wasm', './main-bbebb64fa774fda2.css', './data/es.json?v=0123456789abcdef']) {
    assert.ok(immutable.test(name), name);
  }
  for (const name of ['./', './data/offers.json', './sw.js', './import_worker.js']) assert.ok(!immutable.test(name), name);
});

test('after one visit the page opens without the network, with its offers and their date', async () => {
  // Under a sub-path, as on GitHub Pages.
  const server = await serveDist({ prefix: '/whichgpu/' });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(`${server.url}?model=llama-3.1-70b`);
    await app.waitForResults();
    const date = await app.snapshotDate();
    const online = await app.caption();
    // The worker installs (every file cached) and controls the page.
    await app.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
    await server.close();
    // Another link, no server: the page, its code and the offers come from the cache.
    await app.page.goto(`${server.url}?model=mixtral-8x7b&conc=4`);
    await app.waitForResults();
    assert.equal(await app.modelPicker().inputValue(), 'Mixtral 8x7B v0.1');
    assert.equal(await app.page.locator('#conc').inputValue(), '4');
    assert.equal(await app.snapshotDate(), date);
    assert.match(await app.caption(), /offers/);
    // The second module's parts draw from the cache too.
    await app.page.getByTestId('chart-point').first().waitFor();
    assert.equal(await app.page.getByTestId('later-failed').count(), 0);
    // The page by its file name, with a link's query.
    await app.page.goto(`${server.url}index.html?model=mixtral-8x7b&conc=8`);
    await app.waitForResults();
    assert.equal(await app.page.locator('#conc').inputValue(), '8');
    // And the first workload again: the same ranking as online.
    await app.page.goto(`${server.url}?model=llama-3.1-70b`);
    await app.waitForResults();
    assert.equal(await app.caption(), online);
  } finally {
    await browser.close();
  }
});
