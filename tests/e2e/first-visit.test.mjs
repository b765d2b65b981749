// A first visit downloads each file once (issue 22), the service worker's
// own downloads included: the worker (scripts/sw.template.js) keeps what the
// page needs offline, and it must take the files the page just downloaded
// from the browser's HTTP cache instead of downloading them again.
//
// dist/ is served as GitHub Pages serves it (gzip, and a cache lifetime of
// ten minutes: serveDist's `likePages`), and the downloads are counted at
// the server, which sees the page's requests and the worker's alike (a
// request the HTTP cache answers never reaches it). Each visit is a fresh
// browser context, and counting stops once the worker has installed (its
// cache holds every file it lists), controls the page and the server has
// been idle for half a second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, launchBrowser, serveDist, WhichGpuPage } from './harness.mjs';

const WORKER_FILES = JSON.parse(readFileSync(path.join(DIST, 'sw.js'), 'utf8').match(/const FILES = (\[.*\]);/)[1]);

/** A first visit to `query`: what the server sent (`server.requests`, answered 200) and what the page itself asked for. */
async function firstVisit(query) {
  const server = await serveDist({ likePages: true });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    // Playwright sees the worker's requests too (`request.serviceWorker()`),
    // and requests the HTTP cache answers: these are the page's own asks.
    const asked = [];
    context.on('request', (request) => {
      if (!request.serviceWorker()) asked.push(request.url().slice(server.url.length - 1));
    });
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(`${server.url}${query}`);
    await app.waitForResults();
    await app.page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await app.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
    const cached = await app.page.evaluate(async () => {
      const names = (await caches.keys()).filter((name) => name.startsWith('whichgpu-'));
      return names.length === 1 ? (await (await caches.open(names[0])).keys()).length : -names.length;
    });
    assert.equal(cached, WORKER_FILES.length, "the worker's cache holds every file it lists");
    for (let seen = -1; seen !== server.requests.length;) {
      seen = server.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.deepEqual(app.consoleErrors, []);
    return { downloads: server.requests.filter((r) => r.status === 200), asked };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** `"key: url, url"` for every key that came more than once. */
function repeated(entries) {
  const byKey = new Map();
  for (const [key, url] of entries) byKey.set(key, [...(byKey.get(key) ?? []), url]);
  return [...byKey].filter(([, urls]) => urls.length > 1).map(([key, urls]) => `${key}: ${urls.join(', ')}`);
}

test("a first visit to the page's address downloads each file once, the service worker's included", async () => {
  const { downloads, asked } = await firstVisit('');
  assert.deepEqual(repeated(downloads.map((r) => [r.file, r.url])), [], 'files downloaded more than once');
  assert.deepEqual(repeated(asked.map((url) => [url, url])), [], 'URLs the page asked for more than once');
});

test('a first visit through a link asks for each URL once, and downloads each file once but the page', async () => {
  const link = '?model=llama-3.1-70b';
  const { downloads, asked } = await firstVisit(link);
  // The address bar settles to the link's clean form (?v=1&model=…) while
  // the page loads; the page asks for nothing again when it does.
  assert.deepEqual(repeated(asked.map((url) => [url, url])), [], 'URLs the page asked for more than once');
  // The worker keeps the page as `./`, which the HTTP cache does not hold
  // after a visit to the link: those 6.1 KB gzip (with the first result drawn at build time) come twice, and nothing else.
  const page = downloads.filter((r) => r.file === 'index.html').map((r) => r.url);
  assert.deepEqual(page, [`/${link}`, '/'], 'the page, for the link and for the worker');
  assert.deepEqual(repeated(downloads.filter((r) => r.file !== 'index.html').map((r) => [r.file, r.url])), [], 'files downloaded more than once');
});

test('a first visit in Spanish asks for its words once, beside the module, and downloads each file once (issue 38)', async () => {
  const link = '?lang=es';
  const { downloads, asked } = await firstVisit(link);
  const spanish = asked.filter((url) => url.includes('data/es.json'));
  assert.equal(spanish.length, 1, `the page's Spanish, once: ${spanish}`);
  assert.match(spanish[0], /data\/es\.json\?v=[0-9a-f]{16}$/, "under the build's version, as the worker keeps it");
  assert.deepEqual(repeated(asked.map((url) => [url, url])), [], 'URLs the page asked for more than once');
  assert.deepEqual(repeated(downloads.filter((r) => r.file !== 'index.html').map((r) => [r.file, r.url])), [], 'files downloaded more than once');
});
