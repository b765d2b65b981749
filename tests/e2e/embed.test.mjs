// Embedding (issue 8): `embed=1` is a compact page for an iframe that
// reports its height to the host with postMessage, works in a frame
// sandboxed with `allow-scripts` only, and links to the full page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launchBrowser } from './harness.mjs';

/** A documentation page that embeds whichgpu at 400 px and sizes it from its messages. */
const HOST = (src) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title></head>
<body style="margin:0">
<p>Which GPU for our endpoint?</p>
<iframe id="frame" title="whichgpu" src="${src}" sandbox="allow-scripts" style="width:400px;height:150px;border:0"></iframe>
<script>
  window.messages = [];
  addEventListener('message', (event) => {
    const frame = document.getElementById('frame');
    if (event.source !== frame.contentWindow || event.data?.type !== 'whichgpu:height') return;
    window.messages.push(event.data);
    frame.style.height = event.data.height + 'px';
  });
</script>
</body></html>`;

/**
 * Serves a documentation page (HOST) embedding `./?query`, opens it at
 * 800×700 in a fresh browser (`prepare(context)` runs first), and calls
 * `run({ page, server, errors })`; closes everything after.
 */
async function withHostPage(query, run, prepare = async () => {}) {
  const server = await serveDist({
    routes: { 'host.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(HOST(`./?${query}`)) },
  });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 800, height: 700 } });
    await prepare(context);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(server.url + 'host.html');
    await run({ page, server, errors });
  } finally {
    await browser.close();
    await server.close();
  }
}

test('a host page embeds the top offers in a sandboxed iframe that sizes itself', async () => {
  await withHostPage('embed=1&form=0&model=llama-3.1-70b&wq=awq&conc=16', async ({ page, server, errors }) => {
    const frame = page.frameLocator('#frame');
    await frame.getByTestId('offer-row').first().waitFor();
    // The top five offers, no chart, pages or exports, the form folded;
    // once the page's second module, which would draw the chart, is in (the
    // exports it draws are there, hidden).
    await frame.getByTestId('export-csv').waitFor({ state: 'attached' });
    assert.equal(await frame.getByTestId('export-csv').isVisible(), false);
    assert.equal(await frame.getByTestId('offer-row').count(), 5);
    assert.equal(await frame.getByTestId('cost-chart').count(), 0);
    assert.equal(await frame.getByTestId('pager').count(), 0);
    assert.equal(await frame.locator('header').count(), 0);
    assert.equal(await frame.locator('details.embed-form').getAttribute('open'), null);
    // The iframe grows to the page's height, as the page reports it.
    await page.waitForFunction(() => document.getElementById('frame').getBoundingClientRect().height > 400);
    const { reported, frameHeight, url } = await page.evaluate(() => {
      const last = window.messages.at(-1);
      return { reported: last.height, frameHeight: document.getElementById('frame').getBoundingClientRect().height, url: last.url };
    });
    assert.equal(frameHeight, reported);
    const inner = await frame.locator('html').evaluate((html) => html.scrollHeight);
    assert.ok(Math.abs(inner - reported) <= 2, `page ${inner} px, reported ${reported} px`);
    // "Open in whichgpu" and the reported state are the full page of the same workload.
    const full = `${server.url}?v=1&model=llama-3.1-70b&wq=awq&conc=16`;
    assert.equal(await frame.getByTestId('open-full').getAttribute('href'), full);
    assert.equal(url, full);
    // Nothing scrolls sideways at 400 px.
    assert.ok((await frame.locator('html').evaluate((html) => html.scrollWidth)) <= 400);
    // Readable down to 320 px: the table scrolls in its own box.
    await page.evaluate(() => { document.getElementById('frame').style.width = '320px'; });
    await page.waitForFunction(() => document.getElementById('frame').getBoundingClientRect().width === 320);
    assert.ok((await frame.locator('html').evaluate((html) => html.scrollWidth)) <= 320);
    // Unfolding the form makes the page taller, and the host follows.
    const folded = await page.evaluate(() => document.getElementById('frame').getBoundingClientRect().height);
    await frame.locator('details.embed-form > summary').click();
    await page.waitForFunction((before) => document.getElementById('frame').getBoundingClientRect().height > before + 100, folded);
    assert.deepEqual(errors, []);
  });
});

test("the full page's Embed button gives a snippet that embeds this state and sizes itself", async () => {
  let hostBody = '';
  const server = await serveDist({
    routes: { 'docs.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${hostBody}</body></html>`) },
  });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.goto(server.url + '?model=mixtral-8x7b&wq=fp8&lang=es');
    await page.getByTestId('offer-row').first().waitFor();
    await page.getByTestId('embed-button').click();
    const snippet = await page.getByTestId('embed-snippet').inputValue();
    const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
    // Its form folded: a documentation column shows the offers first (issue 40).
    assert.equal(src, `${server.url}?v=1&model=mixtral-8x7b&wq=fp8&lang=es&embed=1&form=0`);
    // The dialog says what the host of the page must allow for the sandboxed frame.
    assert.match(await page.getByText(/Access-Control-Allow-Origin: \*/).textContent(), /GitHub Pages/);
    assert.match(snippet, /sandbox="allow-scripts"/);
    // Pasted into a documentation page, it shows the same state and grows to fit.
    hostBody = snippet;
    const docs = await context.newPage();
    await docs.goto(server.url + 'docs.html');
    const frame = docs.frameLocator('iframe[title="whichgpu"]');
    await frame.getByTestId('offer-row').first().waitFor();
    assert.match(await frame.getByTestId('memory-summary').textContent(), /^Memoria en una GPU/);
    // In a 900 px column the frame shows each row's $/h, job cost and cost per unit without scrolling sideways.
    for (const id of ['offer-price', 'offer-cost', 'offer-unit-cost']) {
      const cell = await frame.getByTestId(id).first().boundingBox();
      const box = await docs.locator('iframe[title="whichgpu"]').boundingBox();
      assert.ok(cell.x + cell.width <= box.x + box.width, `${id}: ${JSON.stringify(cell)} in ${JSON.stringify(box)}`);
    }
    // The snippet starts the frame at 600 px; the page's message resizes it to its content.
    await docs.waitForFunction(() => Math.round(document.querySelector('iframe[title="whichgpu"]').getBoundingClientRect().height) !== 600);
  } finally {
    await browser.close();
    await server.close();
  }
});

// Embedding safety (issue 10): the embedded page listens to no message from
// its host (src/ui/embed_host.rs only posts). A host that posts junk, look-
// alike messages or commands changes nothing, and the frame, sandboxed with
// allow-scripts only, runs under the page's Content-Security-Policy without
// a violation.
test('messages from the host page are ignored, and the sandboxed embed runs under its policy', async () => {
  const watchViolations = (context) => context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await withHostPage('embed=1&model=llama-3.1-70b&wq=awq&conc=16', async ({ page, errors }) => {
    const frame = page.frameLocator('#frame');
    await frame.getByTestId('offer-row').first().waitFor();
    const before = {
      memory: await frame.getByTestId('memory-summary').textContent(),
      top: await frame.getByTestId('offer-row').first().textContent(),
      link: await frame.getByTestId('open-full').getAttribute('href'),
    };
    await page.evaluate(() => {
      const target = document.getElementById('frame').contentWindow;
      const messages = [
        { type: 'whichgpu:height', height: 1, url: 'https://evil.example/' },
        { type: 'whichgpu:set', query: 'model=llama-3.1-8b&conc=1' },
        { type: 'whichgpu:navigate', url: 'javascript:parent.__pwned=1' },
        'model=llama-3.1-8b',
        '<img src=x onerror="parent.__pwned=1">',
        { toString: null },
        new ArrayBuffer(1 << 20),
        null,
      ];
      for (const message of messages) target.postMessage(message, '*');
    });
    // Give the frame time to (not) react, then check nothing moved.
    await page.waitForTimeout(500);
    const embedded = page.frames().find((f) => f !== page.mainFrame());
    assert.equal(await frame.getByTestId('memory-summary').textContent(), before.memory);
    assert.equal(await frame.getByTestId('offer-row').first().textContent(), before.top);
    assert.equal(await frame.getByTestId('open-full').getAttribute('href'), before.link);
    assert.ok(embedded.url().includes('model=llama-3.1-70b'), embedded.url());
    assert.equal(await frame.locator('#crash, img[src=x]').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    // The frame is sandboxed into an opaque origin, and its policy held with no violation.
    assert.equal(await embedded.evaluate(() => window.origin), 'null');
    assert.deepEqual(await embedded.evaluate(() => window.__violations), []);
    // Still the visitor's to use: an edit in the (unfolded) form applies.
    await frame.locator('#conc').fill('32');
    await embedded.waitForFunction(() => document.querySelector('[data-testid=open-full]').href.includes('conc=32'));
    assert.deepEqual(errors, []);
  }, watchViolations);
});
