// "Your GPU" (issue 9): the page probes the visitor's GPU through WebGPU and
// compares it with renting. Headless Chromium has both real paths: without
// flags requestAdapter() resolves to null; with --enable-unsafe-webgpu it
// gives Dawn's SwiftShader fallback adapter (vendor google, architecture
// swiftshader), a software renderer the page must not call a GPU.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, launchBrowser, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

/** The probe's sentence once the probe has answered. */
async function probed(app) {
  const status = app.page.getByTestId('probe-status');
  await app.page.waitForFunction(() => {
    const text = document.querySelector('[data-testid=probe-status]')?.textContent ?? '';
    return text !== '' && !text.startsWith('Asking') && !text.startsWith('Preguntando');
  });
  return status.textContent();
}

/** Every request the page made goes to the page's own server. */
function sameOrigin(app, origin) {
  const elsewhere = [];
  app.page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  return elsewhere;
}

test('without a WebGPU adapter the page says so, and the picker compares a chosen GPU with renting', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const app = new WhichGpuPage(page);
  const elsewhere = sameOrigin(app, env.server.url);
  await page.goto(`${env.server.url}?model=llama-3.1-8b&conc=4`);
  await app.waitForResults();
  const status = await probed(app);
  assert.match(status, /^No WebGPU adapter: the browser has WebGPU but offered no GPU/);
  // Headless Chromium's WebGL runs on SwiftShader too, which the page does not call a GPU.
  assert.match(status, /WebGL draws with a software renderer, not a GPU \(ANGLE \(Google, .*SwiftShader/);
  assert.match(await page.getByTestId('your-gpu-privacy').textContent(), /nothing is sent anywhere/);
  // No adapter: nothing to measure, no verdict, no row of its own.
  assert.equal(await page.getByTestId('measure-bandwidth').isVisible(), false);
  assert.equal(await page.getByTestId('local-verdict').isVisible(), false);
  assert.equal(await page.getByTestId('local-row').isVisible(), false);

  await page.getByTestId('my-gpu-select').selectOption('rtx_4090');
  const verdict = page.getByTestId('local-verdict');
  await verdict.waitFor();
  // Llama 3.1 8B at bf16 (16.4 GB) fits 24 GB; the verdict names its speed
  // and the top offer, and counts 450 W at the default electricity price.
  assert.match(await verdict.textContent(), /Runs on your GeForce RTX 4090.* at about [\d.]+ tok\/s each \([\d.]+ while streaming\), [\d.,]+ total/);
  assert.match(await verdict.textContent(), /(faster|same speed)/);
  assert.match(await verdict.textContent(), /\$0\.072\/h of electricity \(450 W at \$0\.160\/kWh\)/);
  // The row leads the table: electricity as its price, and it fits.
  const row = page.getByTestId('local-row');
  assert.match(await row.textContent(), /^Your GPU/);
  assert.equal((await row.getByTestId('offer-price').textContent()).trim(), '$0.072');
  assert.match(await row.getByTestId('offer-speed').textContent(), /tok\/s/);
  assert.match(await row.locator('td.badges').textContent(), /^fits$/);
  // The choice rides in the link and survives a reload.
  assert.equal((await app.settledParams()).get('mygpu'), 'rtx_4090');
  await page.reload();
  await app.waitForResults();
  assert.equal(await page.getByTestId('my-gpu-select').inputValue(), 'rtx_4090');
  await page.getByTestId('local-verdict').waitFor();

  // A 70B model does not fit: the verdict says what it needs and what to rent.
  await page.locator('#model').fill('llama-3.1-70b');
  await page.getByTestId('local-verdict').getByText(/^Needs 1\d\d(\.\d)? GiB on one GPU; your GeForce RTX 4090/).waitFor();
  assert.match(await verdict.textContent(), /Or rent .+ at \$[\d.]+\/h: \$[\d,.]+ for the job\./);
  assert.match(await row.locator('td.badges').textContent(), /^doesn't fit: needs 1\d\d(\.\d)? GiB, has 2\d(\.\d)? GiB$/);
  // "None" takes the comparison away, and out of the link.
  await page.getByTestId('my-gpu-select').selectOption('');
  await page.getByTestId('local-row').waitFor({ state: 'hidden' });
  assert.equal((await app.settledParams()).get('mygpu'), null);
  assert.deepEqual(elsewhere, []);
  assert.deepEqual(app.consoleErrors, []);
  await context.close();
});

test('a link with a GPU that is not in the catalog is noted, and the page stays usable', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?mygpu=%3Cimg%20src%3Dx%3E&conc=4`);
  await app.waitForResults();
  assert.match(await app.page.getByTestId('url-notes').textContent(), /mygpu: .*<img src=x>.*ignored/);
  assert.equal(await app.page.getByTestId('my-gpu-select').inputValue(), '');
  assert.equal(await app.page.locator('img[src=x]').count(), 0);
  await app.page.context().close();
});

test('Spanish: the probe and the verdict speak Spanish', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?mygpu=apple_m2_max&lang=es`);
  await app.waitForResults();
  assert.match(await probed(app), /^Sin adaptador WebGPU/);
  const verdict = await app.page.getByTestId('local-verdict').textContent();
  assert.match(verdict, /^Funciona en tu Apple M2 Max/);
  // Apple's unified memory is noted; no power figure, so no electricity.
  assert.match(verdict, /Memoria unificada/);
  assert.match(verdict, /sin dato de consumo/);
  await app.page.context().close();
});

test('with WebGPU on SwiftShader the page names a software renderer and measures it in bounded time', async () => {
  const browser = await launchBrowser(['--enable-unsafe-webgpu']);
  after(() => browser.close());
  const context = await browser.newContext();
  const page = await context.newPage();
  const app = new WhichGpuPage(page);
  const elsewhere = sameOrigin(app, env.server.url);
  await page.goto(`${env.server.url}?model=llama-3.1-8b`);
  await app.waitForResults();
  assert.match(await probed(app), /^Software renderer, not a GPU: the browser reports .*swiftshader/i);
  // Software is no catalog GPU: nothing is compared until one is picked.
  assert.equal(await page.getByTestId('my-gpu-select').inputValue(), '');
  assert.equal(await page.getByTestId('local-row').isVisible(), false);

  const started = Date.now();
  await page.getByTestId('measure-bandwidth').click();
  const result = page.getByTestId('bandwidth-result');
  await result.getByText(/^Measured/).waitFor({ timeout: 20000 });
  const seconds = (Date.now() - started) / 1000;
  const text = await result.textContent();
  const [, gbps, ms] = text.match(/^Measured ([\d,.]+) GB\/s reading .+ in ([\d,]+) ms\./) ?? [];
  const bandwidth = Number(gbps?.replace(/,/g, ''));
  assert.ok(Number.isFinite(bandwidth) && bandwidth > 0, text);
  // The timed passes stop within the budget (1.2 s, plus the pass in flight).
  assert.ok(Number(ms.replace(/,/g, '')) < 5000, text);
  console.log(`SwiftShader: ${text} (${seconds.toFixed(1)} s from the click)`);
  // A software measurement does not replace a picked GPU's datasheet.
  await page.getByTestId('my-gpu-select').selectOption('rtx_4090');
  await page.getByTestId('local-verdict').waitFor();
  assert.match(await result.textContent(), /The datasheet says 1,008 GB\/s\. A software renderer's figure: the estimate keeps the datasheet\./);
  assert.match(await page.getByTestId('local-verdict').textContent(), /Runs on your GeForce RTX 4090/);
  assert.deepEqual(elsewhere, []);
  assert.deepEqual(app.consoleErrors, []);
  await context.close();
});

/**
 * Opens the page with `navigator.gpu` replaced before the app starts: the
 * paths real headless Chromium cannot show (no WebGPU at all, a refusal,
 * a named card, a bare vendor and architecture).
 */
async function withGpu(install, arg = null, query = '?model=llama-3.1-8b') {
  const context = await env.browser.newContext();
  await context.addInitScript(install, arg);
  const page = await context.newPage();
  const app = new WhichGpuPage(page);
  await page.goto(env.server.url + query);
  await app.waitForResults();
  return app;
}

/** Installs a stand-in adapter with this `info`, WebGPU's default limits and shader-f16. */
const fakeAdapter = (info) => {
  Object.defineProperty(Navigator.prototype, 'gpu', {
    configurable: true,
    get: () => ({
      requestAdapter: async () => ({
        info: { vendor: '', architecture: '', device: '', description: '', isFallbackAdapter: false, ...info },
        limits: { maxBufferSize: 268435456, maxStorageBufferBindingSize: 134217728 },
        features: new Set(['shader-f16']),
      }),
    }),
  });
};

test('without navigator.gpu (a browser without WebGPU) the page says so', async () => {
  const app = await withGpu(() => {
    delete Navigator.prototype.gpu;
  });
  assert.equal(await app.page.evaluate(() => 'gpu' in navigator), false);
  assert.match(await probed(app), /^This browser offers no WebGPU here/);
  assert.equal(await app.page.getByTestId('measure-bandwidth').isVisible(), false);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('a refused requestAdapter() is reported in the browser\'s words', async () => {
  const app = await withGpu(() => {
    Object.defineProperty(Navigator.prototype, 'gpu', {
      configurable: true,
      get: () => ({ requestAdapter: () => Promise.reject(new Error('adapter blocked by policy')) }),
    });
  });
  assert.match(await probed(app), /^The browser would not describe its GPU \(adapter blocked by policy\)/);
  await app.page.context().close();
});

test('an adapter that names its card is compared at once, without a choice in the link', async () => {
  const app = await withGpu(fakeAdapter, { vendor: 'nvidia', architecture: 'lovelace', description: 'NVIDIA GeForce RTX 4090' });
  assert.match(await probed(app), /^Your browser reports NVIDIA GeForce RTX 4090: the GeForce RTX 4090 .* of our catalog\./);
  await app.page.getByTestId('local-verdict').getByText(/^Runs on your GeForce RTX 4090/).waitFor();
  assert.equal(await app.page.getByTestId('my-gpu-select').inputValue(), 'rtx_4090');
  await app.page.getByTestId('local-row').waitFor();
  // Detection stays private: only a choice the visitor makes is written to the link.
  await app.page.locator('#conc').fill('3');
  assert.equal((await app.settledParams()).get('mygpu'), null);
  // A real adapter can be measured.
  assert.equal(await app.page.getByTestId('measure-bandwidth').isVisible(), true);
  await app.page.context().close();
});

test('a bare vendor and architecture lists the candidates to confirm', async () => {
  const app = await withGpu(fakeAdapter, { vendor: 'nvidia', architecture: 'lovelace' });
  assert.match(await probed(app), /^Your browser reports nvidia lovelace, which could be GeForce RTX 4090 .* \/ .*…\. Confirm yours below\./);
  // No verdict until the visitor confirms one; the candidates lead the picker.
  assert.equal(await app.page.getByTestId('local-verdict').isVisible(), false);
  const detected = await app.page
    .getByTestId('my-gpu-select')
    .locator('optgroup')
    .first()
    .evaluate((group) => [group.label, ...[...group.querySelectorAll('option')].map((o) => o.value)]);
  assert.equal(detected[0], '(detected)');
  assert.ok(detected.includes('rtx_4090') && detected.includes('rtx_4060') && !detected.includes('rx_7900_xtx'), detected.join());
  await app.page.getByTestId('my-gpu-select').selectOption('rtx_4070');
  // 16.4 GB of Llama 3.1 8B at bf16 do not fit its 12 GB.
  await app.page.getByTestId('local-verdict').getByText(/^Needs 16\.4 GiB on one GPU; your GeForce RTX 4070 .* has 1\d(\.\d)? GiB\. 4-bit weights would fit it\./).waitFor();
  assert.equal((await app.settledParams()).get('mygpu'), 'rtx_4070');
  await app.page.context().close();
});

test('an integrated GPU is named as such: it shares memory, and the catalog has none', async () => {
  const app = await withGpu(fakeAdapter, { vendor: 'intel', architecture: 'gen-12lp', description: 'Intel(R) Iris(R) Xe Graphics' });
  assert.match(
    await probed(app),
    /^Your browser reports Intel\(R\) Iris\(R\) Xe Graphics, an integrated GPU: it shares the system's memory with the CPU/,
  );
  // Real hardware: its bandwidth can be measured; nothing is compared until a card is picked.
  assert.equal(await app.page.getByTestId('measure-bandwidth').isVisible(), true);
  assert.equal(await app.page.getByTestId('local-verdict').isVisible(), false);
  await app.page.context().close();
});
