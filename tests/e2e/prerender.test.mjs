// The default page's first result drawn at build time (issue 38,
// scripts/prerender.mjs): a plain visit shows it from the first paint, the
// copy for its screen's width, in English, or in Spanish once its file comes
// for a page that opens in Spanish; the page puts its own first result in
// the same place in one frame, and nothing moves; any other visit (a link's
// workload, an embedded page) never shows it; a page whose offers fail or
// never come does not stay behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, launchBrowser, serveDist, sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const shared = sharedBrowserAndServer();
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 740 };

const element = (lang) => `<div class="prerender" lang="${lang}" inert>`;

/** The copy in dist/index.html (the inside of its element), or undefined. */
function theCopy() {
  // scripts/post-build.mjs writes it first in the body, before the loading note.
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const start = html.indexOf(element('en'));
  if (start < 0) return undefined;
  return html.slice(start + element('en').length, html.lastIndexOf('</div>', html.indexOf('<div id="boot"')));
}

/** The Spanish copy, the file the page's root names (the inside of its element), or undefined. */
function theSpanishCopy() {
  const name = readFileSync(path.join(DIST, 'index.html'), 'utf8').match(/<html [^>]*data-drawn-es="(first-es-[0-9a-f]{16}\.html)"/)?.[1];
  if (!name) return undefined;
  const html = readFileSync(path.join(DIST, name), 'utf8');
  assert.ok(html.startsWith(element('es')) && html.endsWith('</div>'), `${name} is one copy's element`);
  return html.slice(element('es').length, -'</div>'.length);
}

/** A page whose module never comes: what shows is index.html and its style alone. */
async function withoutModule(options, url = shared.server.url) {
  const context = await shared.browser.newContext(options);
  await context.route(/_bg\.wasm$/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/** The text of the first page of rows shown, and where the table's caption is on the page. */
function shownTable() {
  const shown = [...document.querySelectorAll('table.offers')].find((t) => t.checkVisibility());
  if (!shown) return null;
  const box = shown.querySelector('caption').getBoundingClientRect();
  return {
    rows: [...shown.querySelectorAll('tbody tr')].map((r) => r.innerText.replace(/\s+/g, ' ').trim()),
    caption: [box.x + scrollX, box.y + scrollY, box.width, box.height].map(Math.round),
    copy: shown.closest('.prerender') !== null,
  };
}

test('the built page holds the first result, and its Spanish file the same in Spanish: inert, with no ids, test ids, tooltips, model list or choices its pickers do not show', () => {
  for (const [html, language] of [[theCopy(), 'English'], [theSpanishCopy(), 'Spanish']]) {
    assert.ok(html, `a copy in ${language}`);
    assertCopy(html);
  }
  assert.match(theCopy(), /<caption[^>]*>[\d,]+ of [\d,]+ offers hold this workload/);
  assert.match(theSpanishCopy(), /<caption[^>]*>[\d.]+ de [\d.]+ ofertas admiten esta carga/);
});

function assertCopy(html) {
  assert.match(html, /<table class="offers/, 'the offers table');
  assert.ok((html.match(/<tbody>[\s\S]*?<\/tbody>/)[0].match(/<tr>/g) ?? []).length >= 5, 'the first page of rows');
  assert.match(html, /elementtiming="offers-caption"/, "its caption is timed as the page's is");
  for (const attribute of [' id=', ' data-testid=', ' title=', ' list=', ' aria-controls=', ' aria-labelledby=']) {
    assert.ok(!html.includes(attribute), `no${attribute}`);
  }
  assert.ok(!html.includes('<datalist'), 'no model list');
  assert.ok(!html.includes('<!--'), 'no markers');
  const form = html.match(/<form class="workload-form">[\s\S]*<\/form>/)[0];
  const pickers = form.match(/<select[\s\S]*?<\/select>/g);
  assert.ok(pickers.length >= 8 && pickers.every((p) => p.match(/<option/g).length === 1 && p.includes('selected')), 'each picker of the form keeps its choice only');
}

test('a plain visit shows the copy before the module runs, its form folded on a phone; it does not answer, and says after a second that the calculator is loading', async () => {
  for (const [viewport, view] of [[WIDE, 'wide'], [PHONE, 'narrow']]) {
    const page = await withoutModule({ viewport });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.prerender), view);
    const table = await page.evaluate(shownTable);
    assert.ok(table?.copy, `${view}: the copy's table shows`);
    assert.ok(table.rows.length >= 5 && table.rows.every((r) => r.includes('$')), `${view}: priced rows: ${table.rows[0]}`);
    const tab = page.locator('.prerender [role=tab]').nth(2);
    assert.equal(await tab.isVisible(), view === 'wide', `${view}: the form's tabs show at full width only`);
    assert.equal(await page.locator('.prerender .workload-fold > summary').isVisible(), view === 'narrow', `${view}: the folded form's line`);
    // Inert: nothing in it takes focus or a click.
    if (view === 'wide') {
      await tab.click({ force: true });
      assert.equal(await tab.getAttribute('aria-selected'), 'false');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.closest('.prerender')), null);
    }
    const note = page.getByText('Loading the calculator…');
    await note.waitFor({ state: 'visible', timeout: 3000 });
    assert.equal(await page.getByText('Cargando la calculadora…').isVisible(), false, 'the copy is in English: so is its note');
    await page.context().close();
  }
});

test('a page that opens in Spanish shows the Spanish copy once its file comes, its note in Spanish; a link to English alone shows the English one', async () => {
  for (const [options, url, view] of [
    [{ viewport: WIDE, locale: 'es-ES' }, shared.server.url, 'wide'],
    [{ viewport: PHONE, locale: 'es-ES' }, shared.server.url, 'narrow'],
    [{ viewport: WIDE }, `${shared.server.url}?lang=es`, 'wide'],
  ]) {
    const said = `${url} ${options.locale ?? ''} ${view}`;
    const page = await withoutModule(options, url);
    await page.locator('.prerender table.offers').locator('visible=true').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.prerender), view, said);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'es', said);
    const table = await page.evaluate(shownTable);
    assert.ok(table?.copy && table.rows.length >= 5 && table.rows.every((r) => r.includes('US$')), `${said}: priced rows in Spanish: ${table?.rows[0]}`);
    assert.match(await page.locator('.prerender caption').textContent(), /ofertas admiten esta carga/, said);
    assert.equal(await page.locator('.prerender .workload-fold > summary').isVisible(), view === 'narrow', `${said}: the folded form's line`);
    await page.getByText('Cargando la calculadora…').waitFor({ state: 'visible', timeout: 3000 });
    assert.equal(await page.getByText('Loading the calculator…').isVisible(), false, `${said}: the note in the copy's language`);
    assert.equal(await page.locator('.prerender').count(), 1, `${said}: one copy shows`);
    await page.context().close();
  }
  const english = await withoutModule({ viewport: WIDE, locale: 'es-ES' }, `${shared.server.url}?lang=en`);
  assert.equal(await english.evaluate(() => document.documentElement.dataset.prerender), 'wide');
  assert.match(await english.locator('.prerender caption').textContent(), /offers hold this workload/);
  await english.context().close();
  // Without its file, the loading note where the heading will be.
  const context = await shared.browser.newContext({ viewport: WIDE, locale: 'es-ES' });
  await context.route(/_bg\.wasm$/, (route) => route.abort());
  await context.route(/first-es-[0-9a-f]{16}\.html$/, (route) => route.fulfill({ status: 404 }));
  const missing = await context.newPage();
  await missing.goto(shared.server.url);
  await missing.locator('#boot .boot-name').waitFor({ state: 'visible' });
  assert.equal(await missing.evaluate(shownTable), null, 'no copy');
  assert.equal(await missing.evaluate(() => document.documentElement.dataset.prerender), undefined);
  await context.close();
});

test('the page draws its own first result where the copy was, in one frame, and nothing moves', async () => {
  for (const [viewport, locale] of [[WIDE], [PHONE], [WIDE, 'es-ES']]) {
    const context = await shared.browser.newContext({ viewport, locale });
    await context.addInitScript(() => {
      window.shifts = [];
      new PerformanceObserver((list) => window.shifts.push(...list.getEntries().map((e) => e.value))).observe({ type: 'layout-shift', buffered: true });
    });
    // The module held back until the copy has been read.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await context.route(/_bg\.wasm$/, async (route) => { await held; await route.continue(); });
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(shared.server.url);
    await app.page.locator('.prerender table.offers').locator('visible=true').waitFor();
    const copy = await app.page.evaluate(shownTable);
    release();
    await app.waitForResults();
    const live = await app.page.evaluate(shownTable);
    assert.equal(live.copy, false, 'the page\'s own table shows');
    const said = `${viewport.width} px ${locale ?? ''}`;
    assert.deepEqual(live.rows, copy.rows, `${said}: the same rows`);
    assert.deepEqual(live.caption, copy.caption, `${said}: in the same place`);
    assert.equal(await app.page.locator('.prerender').count(), 0, 'the copies are gone');
    assert.equal(await app.page.evaluate(() => document.documentElement.dataset.prerender), undefined);
    assert.deepEqual(await app.page.evaluate(() => window.shifts), [], 'no layout shift');
    // And the page answers: an edit ranks again.
    const before = await app.firstRowText();
    // On a phone the form is folded: opened first.
    if (viewport === PHONE) await app.page.getByTestId('workload-fold').click();
    await app.modelPicker().fill('Llama 3.1 70B');
    await app.page.waitForFunction((was) => document.querySelector('[data-testid=offer-row]')?.textContent.trim() !== was, before);
    assert.deepEqual(app.consoleErrors, []);
    await context.close();
  }
});

test('a link\'s workload, in either language, and an embedded page never show the copy', async () => {
  for (const [options, url] of [
    [{ viewport: WIDE }, `${shared.server.url}?task=pretrain`],
    [{ viewport: WIDE }, `${shared.server.url}?embed=1`],
    [{ viewport: WIDE }, `${shared.server.url}#results`],
    [{ viewport: WIDE, locale: 'es-ES' }, `${shared.server.url}?task=pretrain`],
    [{ viewport: PHONE }, `${shared.server.url}?lang=es&conc=8`],
  ]) {
    const page = await withoutModule(options, url);
    const said = `${url} ${options.locale ?? ''}`;
    assert.equal(await page.evaluate(() => document.documentElement.dataset.prerender), undefined, said);
    assert.equal(await page.evaluate(shownTable), null, `${said}: no table before the page draws one`);
    assert.ok(await page.locator('#boot .boot-name').isVisible(), `${said}: the loading note where the heading will be`);
    await page.context().close();
  }
  // Once the page is built, the hidden copies are gone too.
  const app = await WhichGpuPage.open(shared.browser, `${shared.server.url}?task=pretrain`);
  await app.waitForResults();
  assert.equal(await app.page.locator('.prerender').count(), 0);
  await app.page.context().close();
});

test('a Spanish copy that comes after the page has drawn its own first result is never shown', async () => {
  const context = await shared.browser.newContext({ viewport: WIDE, locale: 'es-ES' });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await context.route(/first-es-[0-9a-f]{16}\.html$/, async (route) => { await held; await route.continue(); });
  const app = new WhichGpuPage(await context.newPage());
  const asked = app.page.waitForRequest(/first-es-/);
  await app.page.goto(shared.server.url);
  await asked;
  await app.waitForResults();
  const answered = app.page.waitForResponse(/first-es-/);
  release();
  await answered;
  // The prefetch script's callback runs a task after the response.
  await app.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  assert.equal(await app.page.locator('.prerender').count(), 0, 'no copy put in');
  assert.equal(await app.page.evaluate(() => document.documentElement.dataset.prerender), undefined);
  assert.match(await app.caption(), /ofertas admiten esta carga/, "the page's own table shows");
  assert.deepEqual(app.consoleErrors, []);
  await context.close();
});

test('offers that fail replace the copy with the error; offers that never come give the form back after 3 s', async () => {
  const failing = await serveDist({ routes: { 'data/offers.json': (req, res) => res.writeHead(500).end('down') } });
  const hanging = await serveDist({ routes: { 'data/offers.json': () => {} } });
  try {
    const failed = new WhichGpuPage(await (await shared.browser.newContext({ viewport: WIDE })).newPage());
    await failed.page.goto(failing.url);
    await failed.page.getByTestId('load-error').waitFor();
    assert.equal(await failed.page.locator('.prerender').count(), 0);
    assert.ok(await failed.page.getByRole('button', { name: 'Retry' }).isVisible());
    await failed.page.context().close();

    const waiting = await (await shared.browser.newContext({ viewport: WIDE })).newPage();
    await waiting.goto(hanging.url);
    await waiting.getByTestId('loading').waitFor({ state: 'visible', timeout: 10000 });
    assert.equal(await waiting.locator('.prerender').count(), 0);
    assert.ok(await waiting.getByRole('tab', { name: 'Pretrain' }).isVisible(), 'the form answers');
    await waiting.context().close();
  } finally {
    await failing.close();
    await hanging.close();
  }
});
