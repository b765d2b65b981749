// Hostile links (issue 10, first part): the page is opened from links other
// people craft. Every query value is rendered as text, never as HTML: a
// link carrying markup, script URLs or very long values opens no dialog,
// adds no element, and leaves a usable page that says what it ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { launchBrowser, serveDist, WhichGpuPage } from './harness.mjs';

// A server that takes megabyte-long links (GitHub Pages answers 414 past
// about 8 KB; the page must cope whichever way a long link reaches it).
const env = { browser: null, server: null };
before(async () => {
  env.browser = await launchBrowser();
  env.server = await serveDist({ maxHeaderSize: 4 << 20 });
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

const SCRIPT = '<script>window.__pwned=1</script>';
const IMAGE = '"><img src=x onerror="window.__pwned=1">';
const SCRIPT_URL = 'javascript:window.__pwned=1';
const LONG = 'x'.repeat(100 * 1024);

/** Every key the page reads, and some it does not, each given `value`. */
function everyKey(value) {
  const keys = ['task', 'model', 'wq', 'kvq', 'runtime', 'in', 'out', 'conc', 'region', 'provider', 'vendor', 'obj', 'spot',
    'max_ph', 'offer', 'mygpu', 'lang', 'embed', 'form', 'v', value.slice(0, 64)];
  return keys.map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
}

/** Opens `query`, records dialogs, and checks the page stayed itself and usable. */
async function survives(query) {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${query}`);
  const dialogs = [];
  app.page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss();
  });
  await app.waitForResults();
  // Nothing injected ran or was added.
  assert.equal(await app.page.evaluate(() => window.__pwned), undefined);
  assert.equal(await app.page.locator('img[src=x], body script, iframe').count(), 0);
  assert.equal(await app.page.locator('a[href^="javascript:"]').count(), 0);
  assert.deepEqual(dialogs, []);
  // What was ignored is said, as text.
  const notes = app.page.getByTestId('url-notes');
  // The page still works: an edit applies and lands in the link.
  await app.page.locator('#conc').fill('48');
  assert.equal((await app.settledParams()).get('conc'), '48');
  await app.rows().first().waitFor();
  assert.ok((await app.memory()).startsWith('Memory'), await app.memory());
  return { app, notes };
}

test('markup in every query value is shown as text and runs nothing', async () => {
  for (const value of [SCRIPT, IMAGE]) {
    const { app, notes } = await survives(everyKey(value));
    const said = await notes.textContent();
    // The values come back as the characters they are, shortened.
    assert.ok(said.includes('<script>') || said.includes('<img') || said.includes('"><img'), said.slice(0, 300));
    assert.ok(!(await app.page.content()).includes('<img src="x"'), 'no image element in the DOM');
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  }
});

test('a javascript: value becomes no link', async () => {
  const { app, notes } = await survives(everyKey(SCRIPT_URL));
  assert.match(await notes.textContent(), /javascript:/);
  // "Open in whichgpu" and the like point at the page itself.
  const hrefs = await app.page.locator('a[href]').evaluateAll((links) => links.map((a) => a.href));
  assert.ok(hrefs.every((href) => href.startsWith(env.server.url)), hrefs.join());
  await app.page.context().close();
});

test('100 KB values are shortened in the notes and the page stays fast to use', async () => {
  // Four of them (Chromium refuses addresses over 2 MB, so not one per key).
  const query = ['model', 'region', 'mygpu', LONG.slice(0, 64)].map((key) => `${key}=${LONG}`).join('&');
  const started = Date.now();
  const { app, notes } = await survives(query);
  const said = await notes.textContent();
  // Notes quote at most a short prefix of each value, not 100 KB.
  assert.ok(said.length < 20000, `${said.length} characters of notes`);
  assert.ok(Date.now() - started < 20000, `${Date.now() - started} ms`);
  // The address bar settles to a clean link without the junk.
  const params = await app.settledParams();
  assert.ok(![...params.values()].some((v) => v.length > 100), [...params.keys()].join());
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('markup or 100 KB typed into the model box is echoed as short text, and the model stays', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?model=llama-3.1-70b');
  await app.waitForResults();
  const box = app.modelPicker();
  const problem = app.page.locator('#model-error');
  await box.fill(IMAGE);
  assert.equal(await problem.textContent(), `No model matches “${IMAGE}”: pick one from the list, or Custom model…`);
  assert.ok(!(await app.page.content()).includes('<img src="x"'), 'no image element in the DOM');
  await box.fill(LONG);
  await box.press('Enter');
  // The message quotes 40 characters of it, not 100 KB.
  assert.equal(await problem.textContent(), `No model matches “${'x'.repeat(40)}…”: pick one from the list, or Custom model…`);
  assert.equal((await app.settledParams()).get('model'), 'llama-3.1-70b');
  // Still usable: a name picks a model.
  await box.fill('Mixtral 8x22B');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('model') === 'mixtral-8x22b');
  assert.equal(await problem.textContent(), '');
  assert.equal(await app.page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

// Numbers at and past every edge (issue 10): the largest model, context,
// concurrency and GPU count the form takes, and 1e30, NaN, ∞, 0 and
// negatives it refuses. The page names what it refused and shows no NaN or
// infinity anywhere, in any task.
const EDGES = [
  'model=custom&params=1e13&layers=2000&hidden=131072&heads=4096&kv_heads=4096&in=10000000&out=10000000&conc=100000',
  'model=custom&params=1e30&layers=0&hidden=-1&in=NaN&out=Infinity&conc=-4&gpus=1e400',
  'task=finetune&model=custom&params=1e13&seq=10000000&mbs=65536&gpus=100000&tokens=1e15&epochs=10000',
  'task=pretrain&tokens=1e15&gpus=100000&tp=1024&pp=1024&mbs=0&seq=-1',
  'task=image&n=1000000000&batch=4096&steps=10000&res=16384x16384',
  'task=video&frames=18000&res=64x16384&steps=NaN&n=Infinity',
  'task=audio&hours=1e6&rpd=1000000000&uptime=0.1',
  'task=audio&hours=0&uptime=1e30&max_ph=0.01&max_gpus=1',
];

test('a layout the engine cannot use is named beside its field, and said once below the form', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?task=pretrain&gpus=8&tp=3`);
  const field = app.page.locator('#tp');
  await app.page.locator('#tp[aria-invalid=true]').waitFor();
  const problem = 'tensor × pipeline parallel (3 × 1) must divide the 8 GPUs';
  assert.equal(await app.page.locator('#tp-error').textContent(), problem);
  assert.equal(await field.getAttribute('aria-describedby'), 'tp-error');
  // The memory line says why nothing is sized; the results do not repeat it.
  assert.equal(await app.memory(), `tp: ${problem}`);
  await app.page.getByTestId('snapshot-info').waitFor();
  assert.equal(await app.page.getByTestId('results').locator('p.error').count(), 0);
  // A layout that divides the GPUs clears both.
  await field.fill('2');
  await app.waitForResults();
  assert.equal(await app.page.locator('#tp-error').textContent(), '');
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  assert.match(await app.memory(), /per GPU/);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('numbers at and past every edge are refused by name or shown as finite figures', async () => {
  for (const query of EDGES) {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${query}`);
    await app.page.getByTestId('memory-summary').waitFor();
    // Ranked: the offers table is up (perhaps with none that hold it), or
    // the engine's own message says why the workload cannot be sized, in
    // the results or beside the field it is about.
    await app.page.locator('[data-testid=offers-table], p.error, input[aria-invalid=true]').first().waitFor({ timeout: 15000 });
    const text = await app.page.locator('body').innerText();
    // Quoted values and AMD's GPU link, Infinity Fabric, are words, not figures.
    assert.doesNotMatch(text.replace(/«[^»]*»|"[^"]*"|Infinity Fabric/g, ''), /\bNaN\b|Infinity|\binf\b|∞/, query);
    // The page prints a figure that is not finite as "–": none in the memory.
    if (await app.page.getByTestId('memory-summary').count()) assert.doesNotMatch(await app.memory(), /–/, query);
    if (/NaN|Infinity|1e30|1e400|-1|-4|=0&|mbs=0/.test(query)) {
      assert.ok(await app.page.getByTestId('url-notes').count(), `${query}: the refused values are named`);
    }
    assert.deepEqual(app.consoleErrors, [], query);
    await app.page.context().close();
  }
});
