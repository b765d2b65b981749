// The offer snapshot in the page: its date and sources, and what a user sees
// when the file is missing, damaged, of another version or slow (issue 3);
// the same for the GPU and model catalog, which the page downloads too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { serveDist, launchBrowser, WhichGpuPage, DIST } from './harness.mjs';

let browser;
let realSnapshot;
let realCatalog;

before(async () => {
  browser = await launchBrowser();
  realSnapshot = await fs.readFile(path.join(DIST, 'data/offers.json'), 'utf8');
  realCatalog = await fs.readFile(path.join(DIST, 'data/catalog.json'), 'utf8');
});

after(async () => {
  await browser?.close();
});

/** Serves dist/ with the file at `file` answered by `handler`, for `body`. */
async function withRoute(file, handler, body) {
  const server = await serveDist({ routes: { [file]: handler } });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}
const withOffers = (handler, body) => withRoute('data/offers.json', handler, body);
const withCatalog = (handler, body) => withRoute('data/catalog.json', handler, body);

const json = (text, status = 200) => (req, res) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
};

/** Panics and script errors, but not the failed request a fault test causes on purpose. */
const scriptErrors = (app) => app.consoleErrors.filter((e) => !/Failed to load resource|^\d{3} http/.test(e));

test('the page shows the snapshot date and, per provider, how old its prices are', async () => {
  await withOffers(json(realSnapshot), async (server) => {
    const app = await WhichGpuPage.open(browser, server.url);
    await app.waitForResults();
    const snapshot = JSON.parse(realSnapshot);
    assert.equal(await app.snapshotDate(), snapshot.snapshot_date);
    await app.page.getByText('Sources and dates per provider').click();
    const rows = app.page.getByTestId('provider-freshness').locator('tbody tr');
    // The list is built when the section opens (its toggle event comes a
    // moment after the click), so wait for it before counting.
    await rows.first().waitFor();
    // Every provider that sells an offer; the providers whose billing rules
    // a reseller passes through (issue 27) sell none themselves.
    const selling = new Set(snapshot.offers.map((o) => o.provider)).size;
    assert.equal(await rows.count(), selling);
    assert.ok(selling >= 25);
    // Older sources carry their own date: the FSDL-only clouds and the v6 catalogs.
    assert.match(await rows.filter({ hasText: 'Oblivus' }).textContent(), /about 2023/);
    assert.match(await rows.filter({ hasText: 'Azure' }).textContent(), /v6 catalog/);
    assert.deepEqual(app.consoleErrors, []);
  });
});

test('a missing snapshot says so, keeps sizing and the link, and retries', async () => {
  let fail = true;
  const handler = (req, res) => (fail ? json('not here', 404) : json(realSnapshot))(req, res);
  await withOffers(handler, async (server) => {
    const app = await WhichGpuPage.open(browser, server.url + '?model=llama-3.1-70b&wq=int4');
    const error = app.page.getByTestId('load-error');
    await error.waitFor();
    assert.match(await error.textContent(), /offer data could not be downloaded: the server answered 404/);
    // Memory sizing needs no offers, and the form state stays in the URL.
    assert.match(await app.memory(), /weights 36\.8 GiB/);
    assert.equal((await app.settledParams()).get('model'), 'llama-3.1-70b');
    fail = false;
    await error.getByRole('button', { name: 'Retry' }).click();
    await app.waitForResults();
    assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 70B');
    assert.deepEqual(scriptErrors(app), []);
  });
});

test('a truncated snapshot is reported as damaged, not a blank page', async () => {
  await withOffers(json(realSnapshot.slice(0, realSnapshot.length / 2)), async (server) => {
    const app = await WhichGpuPage.open(browser, server.url);
    const error = app.page.getByTestId('load-error');
    await error.waitFor();
    assert.match(await error.textContent(), /offer data could not be read: the file is damaged or incomplete/);
    assert.match(await app.memory(), /weights 15 GiB/);
    assert.deepEqual(scriptErrors(app), []);
  });
});

test('a snapshot of another schema version is refused with its version', async () => {
  const future = realSnapshot.replace('"schema_version":2', '"schema_version":3');
  await withOffers(json(future), async (server) => {
    const app = await WhichGpuPage.open(browser, server.url);
    const error = app.page.getByTestId('load-error');
    await error.waitFor();
    assert.match(await error.textContent(), /schema version 3 but this page reads version 2/);
    assert.deepEqual(scriptErrors(app), []);
  });
});

test('a slow snapshot shows the loading state, then the results', async () => {
  const slow = (req, res) => setTimeout(() => json(realSnapshot)(req, res), 1500);
  await withOffers(slow, async (server) => {
    // Through a link: a plain visit shows the first result drawn at build
    // time meanwhile (tests/e2e/prerender.test.mjs).
    const app = await WhichGpuPage.open(browser, `${server.url}?model=llama-3.1-8b`);
    await app.page.getByTestId('loading').waitFor();
    assert.match(await app.memory(), /weights 15 GiB/);
    await app.waitForResults();
    assert.equal(await app.page.getByTestId('loading').count(), 0);
    // The page did not wait for the offers past its bound (half a second).
    const [built, arrived] = await builtAndOffersArrived(app.page);
    assert.ok(built < arrived - 500, `page built at ${built} ms, offers arrived at ${arrived} ms`);
    assert.deepEqual(app.consoleErrors, []);
  });
});

/** When, by the page's clock, the page started to be built and the offers' body had arrived. */
const builtAndOffersArrived = (page) =>
  page.evaluate(() => [
    performance.getEntriesByName('whichgpu:mount')[0].startTime,
    performance.getEntriesByType('resource').find((e) => e.name.endsWith('data/offers.json')).responseEnd,
  ]);

test('offers a little later than the module are waited for; the form is painted, then they are parsed', async () => {
  // 300 ms late: after the module is ready here (about 150-250 ms into the
  // load), well inside the half second the page waits.
  const late = (req, res) => setTimeout(() => json(realSnapshot)(req, res), 300);
  await withOffers(late, async (server) => {
    const context = await browser.newContext();
    // What each frame is about to paint: an animation frame callback runs
    // just before the frame's style, layout and paint.
    await context.addInitScript(() => {
      window.framesPainted = [];
      const note = () => {
        const has = (selector) => !!document.querySelector(selector);
        window.framesPainted.push({ form: has('form.workload-form'), result: has('[data-testid=offer-row]') });
        if (!has('[data-testid=offer-row]')) requestAnimationFrame(note);
      };
      requestAnimationFrame(note);
    });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByTestId('offer-row').first().waitFor({ timeout: 15000 });
    const [built, arrived] = await builtAndOffersArrived(page);
    assert.ok(built >= arrived, `page built at ${built} ms, before the offers arrived at ${arrived} ms`);
    // The form had a frame of its own before the result.
    const frames = await page.evaluate(() => window.framesPainted);
    assert.deepEqual(frames.find((f) => f.form), { form: true, result: false }, JSON.stringify(frames));
    await context.close();
  });
});

/**
 * Opens `url` in a new context whose page notes, by its own clock, each
 * time it asks for the offers (`window.offersAskedAt`).
 */
async function openNotingOfferFetches(url) {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const fetch = window.fetch;
    window.offersAskedAt = [];
    window.fetch = function (resource, ...rest) {
      if (String(resource).endsWith('data/offers.json')) window.offersAskedAt.push(performance.now());
      return fetch.call(this, resource, ...rest);
    };
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId('offer-row').first().waitFor({ timeout: 15000 });
  return page;
}

test('the offers are downloaded once and read while the module loads', async () => {
  let requests = 0;
  const counted = (req, res) => {
    requests += 1;
    json(realSnapshot)(req, res);
  };
  await withOffers(counted, async (server) => {
    const page = await openNotingOfferFetches(server.url);
    const [asked, mounted, left] = await page.evaluate(() => [
      window.offersAskedAt,
      performance.getEntriesByName('whichgpu:mount')[0].startTime,
      window.whichgpuOffers,
    ]);
    // The loader's prefetch asked once, before the module started to build
    // the page; the module took its promise instead of asking again.
    assert.equal(asked.length, 1);
    assert.ok(asked[0] < mounted, `offers asked for at ${asked[0]} ms, page built from ${mounted} ms`);
    assert.equal(left, false, 'the module took the promise');
    // The preload and the script's fetch share one request.
    assert.equal(requests, 1);
    await page.context().close();
  });
});

test('a missing catalog says so in the link\'s language, and Retry opens the same link again', async () => {
  let fail = true;
  let requests = 0;
  let asked;
  const handler = (req, res) => {
    requests += 1;
    asked = req.url;
    (fail ? json('not here', 404) : json(realCatalog))(req, res);
  };
  await withCatalog(handler, async (server) => {
    const app = await WhichGpuPage.open(browser, server.url + '?model=llama-3.1-70b&wq=int4&lang=es');
    const error = app.page.getByTestId('catalog-error');
    await error.waitFor();
    assert.equal(await app.page.locator('#boot').count(), 0, 'the error replaced the loading note');
    assert.equal(await error.locator('p').textContent(), 'no se pudo descargar el catálogo de GPU y modelos: el servidor respondió 404 Not Found');
    // The preload and the loader's read share one request, which names the
    // build's catalog by its hash (a cached older one is never used).
    assert.equal(requests, 1);
    assert.match(asked, /^\/data\/catalog\.json\?v=[0-9a-f]{16}$/);
    fail = false;
    await error.getByRole('button', { name: 'Reintentar' }).click();
    await app.waitForResults();
    assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 70B');
    assert.match(await app.memory(), /pesos 36,8 GiB/);
    assert.deepEqual(scriptErrors(app), []);
  });
});

test('a damaged catalog, or one of another version, is refused with a message, not a blank page', async () => {
  const cases = [
    [realCatalog.slice(0, realCatalog.length / 2), /^the GPU and model catalog could not be read: the file is cut short: .+ at line 1 column \d+$/],
    [realCatalog.replace('"schema_version":2', '"schema_version":9'), /^the GPU and model catalog could not be read: schema_version 9 \(this build reads 2\)$/],
    // The catalog before the support matrix (issue 23), as a stale cache could serve it.
    [realCatalog.replace('"schema_version":2', '"schema_version":1'), /^the GPU and model catalog could not be read: schema_version 1 \(this build reads 2\)$/],
  ];
  for (const [body, said] of cases) {
    await withCatalog(json(body), async (server) => {
      const app = await WhichGpuPage.open(browser, server.url);
      const error = app.page.getByTestId('catalog-error');
      await error.waitFor();
      assert.match(await error.locator('p').textContent(), said);
      assert.deepEqual(scriptErrors(app), []);
    });
  }
});

test('until the page is built it says it is loading, in both languages; after 8 s, what to do if it stays so; then the page replaces the note', async () => {
  // Through a link the note stands where the heading will; a plain visit
  // shows the first result drawn at build time, in English, and the note
  // under it in English (tests/e2e/prerender.test.mjs).
  for (const [query, spanish] of [['?model=llama-3.1-8b', true], ['', false]]) {
    let held;
    await withCatalog((req, res) => { held = res; }, async (server) => {
      const context = await browser.newContext();
      try {
        const app = new WhichGpuPage(await context.newPage());
        // Not until `load`: the held catalog is preloaded, and holds it back.
        await app.page.goto(`${server.url}${query}`, { waitUntil: 'domcontentloaded' });
        const note = app.page.locator('#boot');
        assert.equal(await note.getAttribute('role'), 'status');
        await note.getByText('Loading the calculator…').waitFor();
        const inSpanish = note.getByText('Cargando la calculadora…');
        if (spanish) await inSpanish.waitFor();
        assert.equal(await inSpanish.isVisible(), spanish, query);
        assert.equal(await note.getByText('whichgpu', { exact: true }).isVisible(), spanish, query);
        const slow = note.getByText('Still loading. If nothing shows, reload the page');
        assert.equal(await slow.isVisible(), false);
        await slow.waitFor({ state: 'visible', timeout: 15000 });
        assert.equal(await note.getByText('Sigue cargando. Si no aparece nada, recarga la página').isVisible(), spanish, query);
        json(realCatalog)(null, held);
        await app.waitForResults();
        assert.equal(await note.count(), 0);
        assert.equal(await app.page.locator('h1').count(), 1);
        assert.deepEqual(app.consoleErrors, []);
      } finally {
        await context.close();
      }
    });
  }
});

test('without JavaScript the page says it needs it, in both languages, and does not claim to be loading', async () => {
  const server = await serveDist();
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(server.url);
    // Playwright's text locators skip <noscript>: its words are read as
    // rendered (innerText leaves out what is hidden).
    const note = page.locator('#boot');
    assert.equal(
      await note.innerText(),
      'whichgpu\n\nwhichgpu runs in your browser: turn on JavaScript for this site to use it.\n\nwhichgpu funciona en tu navegador: activa JavaScript para este sitio para usarlo.',
    );
    assert.equal(await note.getByText('Loading the calculator…').isVisible(), false);
  } finally {
    await context.close();
    await server.close();
  }
});
