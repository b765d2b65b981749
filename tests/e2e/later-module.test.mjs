// The page's module in two (issue 38): the first result waits for the first
// module only; the second (later-<hash>.wasm, src/ui/later.rs) is asked for
// once, after the first result is painted; and the first use of each part it
// draws (the chart, a row's breakdown, the exports, the offers left out,
// "Your GPU", the model import's controls, the snapshot's sources) asks for
// nothing more; the hosted APIs' prices come once, with the second module. The requests counted are the page's own (Playwright sees
// requests the HTTP cache answers too), not the service worker's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, serveDist, WhichGpuPage } from './harness.mjs';

/** A file's name without its content hash or version query: `whichgpu-<hash>.js` → `whichgpu.js`. */
// (Trunk's hashes drop their leading zeros: 12 to 16 hex digits.)
const unhashed = (url) => new URL(url).pathname.replace(/^.*?\/(?=[^/]*$)/, '').replace(/-[0-9a-f]{12,16}(?=[._])/, '');

/** The files of the first module and the data the first result is made of. */
const FIRST_RESULT = ['boot.js', 'catalog.json', 'main.css', 'offers.json', 'prefetch.js', 'split.js', 'whichgpu.js', 'whichgpu_bg.wasm'];

test('the first result waits for the first module only; the second comes once, after it, and each part it draws asks for nothing more', async () => {
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ acceptDownloads: true });
    const asked = [];
    context.on('request', (request) => {
      if (!request.serviceWorker()) asked.push(unhashed(request.url()));
    });
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(server.url);
    await app.waitForResults();
    // When the page's own first result was painted (a plain visit shows the
    // copy drawn at build time before it, tests/e2e/prerender.test.mjs), and
    // what the page had started to download by then (Resource Timing; the
    // page itself is the navigation).
    const { painted, resources } = await app.page.evaluate(async () => ({
      painted: await new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entry = list.getEntries().find((e) => e.identifier === 'offers-caption' && e.element?.isConnected);
          if (entry) resolve(entry.renderTime || entry.loadTime);
        }).observe({ type: 'element', buffered: true });
      }),
      resources: performance.getEntriesByType('resource').map((e) => ({ name: e.name, start: e.startTime })),
    }));
    const before = resources.filter((r) => r.start < painted).map((r) => unhashed(r.name)).sort();
    assert.deepEqual(before, FIRST_RESULT, 'what the page asked for before the first result');
    // The chart is the second module's first part on screen.
    await app.page.getByTestId('chart-point').first().waitFor();
    const second = (await app.page.evaluate(() => performance.getEntriesByType('resource').map((e) => ({ name: e.name, start: e.startTime }))))
      .filter((r) => /\/later-[0-9a-f]{16}\.wasm$/.test(r.name));
    assert.equal(second.length, 1, 'the second module, asked for once');
    assert.ok(second[0].start >= painted, `the second module asked for at ${second[0].start} ms, after the first result at ${painted} ms`);
    // The hosted APIs' prices, which the second module asks for once the
    // workload is serving (the page's default is a chat endpoint).
    await app.page.getByTestId('hosted-api').waitFor();
    // Everything the page asked for so far: the page itself (''), the first result's files, the second module, the prices.
    assert.deepEqual(asked.sort(), ['', ...FIRST_RESULT, 'hosted.json', 'later.wasm'].sort());

    // First use of each part the second module draws.
    const settled = asked.length;
    await app.page.getByTestId('chart-point').first().hover();
    await app.page.getByTestId('expand-row').first().click();
    await app.page.getByTestId('row-details').locator('dt').first().waitFor();
    const download = app.page.waitForEvent('download');
    await app.page.getByTestId('export-csv').click();
    assert.match((await download).suggestedFilename(), /\.csv$/);
    await app.page.getByTestId('excluded').locator('summary').click();
    await app.page.getByTestId('excluded').locator('li').first().waitFor();
    await app.page.getByTestId('your-gpu').waitFor();
    await app.page.getByTestId('my-gpu-select').selectOption({ index: 1 });
    await app.page.getByTestId('local-row').waitFor();
    await app.page.getByTestId('model-import').locator('summary').click();
    await app.page.getByTestId('drop-zone').waitFor();
    await app.page.getByTestId('snapshot-date').waitFor();
    assert.deepEqual(asked.slice(settled), [], 'requests on the first use of the parts the second module draws');
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a second module that does not download leaves the first result and the form working, and says so where its parts go', async () => {
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    await context.route(/\/later-[0-9a-f]{16}\.wasm$/, (route) => route.abort());
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(server.url);
    await app.waitForResults();
    await app.page.getByTestId('later-failed').first().waitFor();
    // No crash: the form still ranks.
    const before = await app.firstRowText();
    await app.modelPicker().fill('Llama 3.1 70B');
    await app.page.waitForFunction((was) => document.querySelector('[data-testid=offer-row]')?.textContent.trim() !== was, before);
    assert.equal(await app.page.locator('#crash').count(), 0, 'no crash panel');
    // The only errors: the failed download, as the browser and the loader log it.
    assert.ok(app.consoleErrors.every((e) => /Failed to (fetch|load resource)/.test(e)), JSON.stringify(app.consoleErrors));
  } finally {
    await browser.close();
    await server.close();
  }
});

/** In the page, from its first script on: whether the form's task tabs existed when the first offer row was added (`window.formAtFirstRow`). */
function noteFormAtFirstRow() {
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-testid=offer-row]')) {
      // The page's own form, not the copy drawn at build time (scripts/prerender.mjs).
      window.formAtFirstRow = !!document.querySelector('body > main [role=tablist]');
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

test('a folded form (a phone) is built after the first result, or at once when it is opened first, and keeps what the link set', async () => {
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(noteFormAtFirstRow);
    const app = new WhichGpuPage(await context.newPage());
    await app.page.goto(`${server.url}?model=llama-3.1-70b&conc=24`);
    await app.waitForResults();
    assert.equal(await app.page.evaluate(() => window.formAtFirstRow), false, 'the folded form was not built before the first row');
    // Built right after, so that opening it shows its fields at once.
    await app.page.getByTestId('workload-fold').click();
    await app.page.getByRole('tablist').waitFor();
    const concurrency = app.page.getByLabel('Concurrent requests', { exact: true });
    assert.equal(await concurrency.inputValue(), '24');
    // Folded and opened again, it is the same form: what is typed and not
    // yet applied (a value it refuses) is still there.
    await concurrency.fill('-5');
    await app.page.getByTestId('workload-fold').click();
    await app.page.getByTestId('workload-fold').click();
    assert.equal(await concurrency.inputValue(), '-5');
    assert.equal(await concurrency.getAttribute('aria-invalid'), 'true');
    // At full width the form is open, and built with the first result.
    const wide = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await wide.addInitScript(noteFormAtFirstRow);
    const page = await wide.newPage();
    await page.goto(server.url);
    await page.locator('[data-testid=offer-row]').first().waitFor();
    assert.equal(await page.evaluate(() => window.formAtFirstRow), true, 'an open form is built with the page');
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
