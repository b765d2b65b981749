// A link's first result on a phone, drawn before the page is built (issue
// 38, src/ui/first_copy.rs, src/present/first_result.rs): once the offers
// are ranked the copy shows, inert; the page then builds itself behind it
// and puts its own first result in the same place in one frame. The copy
// must be the page's first result: the same rows, the caption and the table
// where the page draws them, nothing moving at the swap. Links the copy
// does not draw as the page does (latency targets, an embedded page, a
// link with notes) and wider screens never get one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, serveDist, sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const shared = sharedBrowserAndServer();
const PHONE = { width: 360, height: 740 };

/** Before the page's scripts: records the copy drawn at run time (its form folded, unlike the one drawn at build time) as it comes in, and layout shifts. */
function recordCopy() {
  window.shifts = [];
  new PerformanceObserver((list) => window.shifts.push(...list.getEntries().map((e) => e.value))).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver((_, observer) => {
    const copy = document.querySelector('body > .prerender');
    if (!copy || copy.querySelector('.workload-fold[open]')) return;
    observer.disconnect();
    const table = copy.querySelector('table.offers');
    const box = (e) => { const b = e.getBoundingClientRect(); return [b.x + scrollX, b.y + scrollY, b.width, b.height].map(Math.round); };
    window.copy = {
      shown: copy.checkVisibility(),
      lang: copy.lang,
      inert: copy.inert,
      rows: [...table.querySelectorAll('tbody tr')].map((r) => r.innerText.replace(/\s+/g, ' ').trim()),
      cells: [...table.querySelectorAll('tbody tr:first-child td')].map((td) => [td.className, td.dataset.label ?? '']),
      caption: box(table.querySelector('caption')),
      table: box(table),
      memory: copy.querySelector('.memory').textContent,
    };
  }).observe(document, { childList: true, subtree: true });
}

/** The page's own table, as `recordCopy` records the copy's. */
function liveTable() {
  const table = document.querySelector('body > main table.offers');
  const box = (e) => { const b = e.getBoundingClientRect(); return [b.x + scrollX, b.y + scrollY, b.width, b.height].map(Math.round); };
  return {
    rows: [...table.querySelectorAll('tbody tr')].map((r) => r.innerText.replace(/\s+/g, ' ').trim()),
    cells: [...table.querySelectorAll('tbody tr:first-child td')].map((td) => [td.className, td.dataset.label ?? '']),
    caption: box(table.querySelector('caption')),
    table: box(table),
    memory: document.querySelector('body > main .memory').textContent,
  };
}

async function openOnPhone(query, options = {}) {
  const context = await shared.browser.newContext({ viewport: PHONE, ...options });
  await context.addInitScript(recordCopy);
  const app = new WhichGpuPage(await context.newPage());
  await app.page.goto(shared.server.url + query);
  await app.waitForResults();
  return app;
}

test('a link on a phone shows its first result before the page is built: the same rows, in the same places, and nothing moves', async () => {
  for (const [query, lang] of [
    ['?model=llama-3.1-70b', 'en'],
    ['?task=pretrain&model=llama-3.1-70b&gpus=256', 'en'],
    ['?task=image&lang=es', 'es'],
    ['?task=finetune&model=llama-3.1-8b', 'en'],
    ['?task=audio', 'en'],
    ['?task=music&lang=es', 'es'],
    // A short table: no pager, and its rows a phone's cards.
    ['?model=llama-3.1-8b&provider=lambda&gpu=gh200', 'en'],
  ]) {
    const app = await openOnPhone(query);
    const copy = await app.page.evaluate(() => window.copy);
    assert.ok(copy?.shown, `${query}: a copy showed`);
    assert.equal(copy.lang, lang, query);
    assert.ok(copy.inert, `${query}: it does not answer`);
    const live = await app.page.evaluate(liveTable);
    assert.ok(live.rows.length >= 1 && live.rows.every((r) => r.includes('$')), `${query}: priced rows`);
    assert.deepEqual(copy.rows, live.rows, `${query}: the same rows`);
    assert.deepEqual(copy.cells, live.cells, `${query}: each cell's class and label`);
    assert.equal(copy.memory, live.memory, `${query}: the same memory line`);
    assert.deepEqual(copy.caption, live.caption, `${query}: the caption in the same place`);
    assert.deepEqual(copy.table, live.table, `${query}: the table in the same place, as tall`);
    assert.equal(await app.page.locator('.prerender').count(), 0, `${query}: the copy is gone`);
    assert.deepEqual(await app.page.evaluate(() => window.shifts), [], `${query}: no layout shift`);
    assert.deepEqual(app.consoleErrors, [], query);
    await app.page.context().close();
  }
});

test('after the copy the page answers: an edit ranks again', async () => {
  const app = await openOnPhone('?model=llama-3.1-70b&conc=8');
  assert.ok(await app.page.evaluate(() => window.copy?.shown));
  const before = await app.firstRowText();
  await app.page.getByTestId('workload-fold').click();
  await app.modelPicker().fill('Llama 3.1 8B');
  await app.page.waitForFunction((was) => document.querySelector('[data-testid=offer-row]')?.textContent.trim() !== was, before);
  assert.match(await app.page.getByTestId('memory-summary').textContent(), /Memory on one GPU: 1\d\.\d GiB/);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('a wider screen, latency targets, an embedded page or a link with notes draw no copy, and the page shows its own', async () => {
  for (const [query, options] of [
    ['?model=llama-3.1-70b', { viewport: { width: 1280, height: 900 } }],
    ['?model=llama-3.1-8b&ttft=0.5', {}],
    ['?model=llama-3.1-8b&embed=1', {}],
    ['?model=llama-3.1-8b&conc=-3', {}],
  ]) {
    const app = await openOnPhone(query, options);
    assert.equal(await app.page.evaluate(() => window.copy), undefined, `${query}: no copy`);
    assert.ok((await app.page.getByTestId('offer-row').count()) >= 1, `${query}: the page's rows`);
    assert.deepEqual(app.consoleErrors, [], query);
    await app.page.context().close();
  }
});

test('offers that come late draw no copy: the page is built as before and shows them when they come', async () => {
  const offers = readFileSync(path.join(DIST, 'data/offers.json'));
  const slow = await serveDist({
    routes: {
      'data/offers.json': (req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(offers), 1500),
    },
  });
  try {
    const context = await shared.browser.newContext({ viewport: PHONE });
    await context.addInitScript(recordCopy);
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(`${slow.url}?model=llama-3.1-70b`);
    await app.page.getByTestId('loading').waitFor();
    await app.waitForResults();
    assert.equal(await app.page.evaluate(() => window.copy), undefined, 'no copy');
    await context.close();
  } finally {
    await slow.close();
  }
});
