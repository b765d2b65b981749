// English and Spanish (issue 7): the browser's language picks the page's,
// the switcher changes it without losing the workload, `lang=` keeps it in
// the link, and in Spanish no English words are left and numbers are
// written the Spanish way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

/**
 * Words of the English page that must not show in Spanish. Names the two
 * languages share (GPU, VRAM, NVLink, spot, LoRA, tok/s) are not listed.
 */
const ENGLISH = [
  'Memory', 'weights', 'offers', 'hold this', 'Provider', 'Instance', 'Regions', 'Speed', 'Job time', 'Job cost',
  'Per unit', 'Notes', 'Download', 'Prices', 'Sources', 'estimate', 'Start from', 'Renting', 'Rank by', 'Task',
  'Model', 'Weight precision', 'Runtime', 'Concurrent', 'Prompt', 'Output', 'Hours', 'per GPU', 'billed', 'left out',
  'memory-bound', 'compute-bound', 'Each dot', 'Rows ', 'Next', 'Previous', 'images', 'Optimizer', 'Method',
  'Dataset', 'Epochs', 'Resolution', 'Batch', 'Denoising', 'Spot saves', 'It fits', 'Decoding', 'more',
  // "Your GPU" (issue 9): the probe, the picker's groups and the measurement.
  'Your GPU', 'nothing is sent', 'adapter', 'Pick', 'None', 'Desktop cards', 'Laptops', 'Workstation cards',
  'Datacenter cards', 'Measure',
];

/**
 * The page's text as shown. The GPU picker's options are left out: they
 * are catalog names as gpus.csv spells them (e.g. "A16 (per GPU)"), data
 * like the model names; its group labels are checked on their own.
 */
async function visibleText(app) {
  return app.page.evaluate(() => {
    const picker = document.querySelector('[data-testid=my-gpu-select]');
    const groups = [...(picker?.querySelectorAll('optgroup') ?? [])].map((g) => g.label).join('\n');
    if (picker) picker.style.display = 'none';
    // Catalog names are data wherever they show (the offers left out name
    // "A16 (per GPU)" too).
    const text = document.body.innerText.replaceAll('(per GPU)', '');
    if (picker) picker.style.display = '';
    return `${text}\n${groups}`;
  });
}

/** The listed English words in `text`, as whole words ("Modelo" is not "Model"). */
function englishLeftIn(text) {
  return ENGLISH.filter((word) => new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u').test(text));
}

test('lang=es shows the whole page in Spanish with Spanish numbers, for every task', async () => {
  for (const query of ['', '&task=finetune&method=qlora', '&task=pretrain', '&task=image&n=10000', '&task=video', '&task=audio']) {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?lang=es${query}`);
    await app.waitForResults();
    assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'es');
    assert.match(await app.page.title(), /¿qué GPU alquilar/);
    // Open the table's first breakdown and the offers left out, so their words count too.
    await app.page.getByTestId('expand-row').first().click();
    await app.page.getByTestId('row-details').waitFor();
    const excluded = app.page.getByTestId('excluded');
    if (await excluded.count()) {
      await excluded.locator('summary').click();
      await excluded.locator('li').first().waitFor();
    }
    const text = await visibleText(app);
    assert.deepEqual(englishLeftIn(text), [], `${query}: ${text.slice(0, 400)}`);
    assert.match(await app.memory(), /^Memoria (en una GPU|por GPU)/);
    // With spot rows, how many rows the offers make (issue 40).
    assert.match(await app.caption(), /^[\d.]+ de [\d.]+ ofertas admiten esta carga(, en [\d.]+ filas \([^)]+\))?; orden: /);
    // Decimal commas and the dollar after the figure (CLDR es).
    const price = await app.page.getByTestId('offer-price').first().textContent();
    assert.match(price, /^\d+,\d{2,3}\u00a0US\$/);
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  }
});

test("a Spanish browser gets Spanish; the switcher changes language, keeps the workload and records it in the link", async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?conc=8`, { locale: 'es-ES' });
  await app.waitForResults();
  assert.match(await app.memory(), /^Memoria en una GPU/);
  // The browser chose, so the link stays as it was.
  assert.equal((await app.settledParams()).get('lang'), null);
  const select = app.page.getByTestId('language-select');
  assert.equal(await select.inputValue(), 'es');
  await select.selectOption('en');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('lang') === 'en');
  assert.match(await app.memory(), /^Memory on one GPU/);
  assert.equal(await app.page.evaluate(() => document.documentElement.lang), 'en');
  // Nothing typed is lost.
  assert.equal(await app.page.locator('#conc').inputValue(), '8');
  assert.equal((await app.settledParams()).get('conc'), '8');
  await app.waitForResults();
  assert.match(await app.caption(), /^[\d,]+ of [\d,]+ offers hold this workload/);
  // The link reopens in the chosen language, whatever the browser prefers.
  await app.page.reload();
  await app.waitForResults();
  assert.match(await app.memory(), /^Memory on one GPU/);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('an English page loads its Spanish only when switched to it, then reads in Spanish (issue 38)', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?conc=8`, { locale: 'en-US' });
  const spanish = [];
  app.page.on('request', (request) => {
    if (request.url().includes('data/es.json')) spanish.push(request.url());
  });
  await app.waitForResults();
  assert.match(await app.memory(), /^Memory on one GPU/);
  assert.deepEqual(spanish, [], 'an English page asks for no Spanish');
  await app.page.getByTestId('language-select').selectOption('es');
  await app.page.waitForFunction(() => document.documentElement.lang === 'es');
  assert.match(await app.memory(), /^Memoria en una GPU/);
  await app.waitForResults();
  assert.match(await app.caption(), /ofertas/);
  assert.equal(spanish.length, 1, `the Spanish, once: ${spanish}`);
  assert.equal(await app.page.locator('#conc').inputValue(), '8');
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('a field error and a link note speak the page language', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?lang=es&wq=fp7`);
  await app.waitForResults();
  assert.match(await app.page.getByTestId('url-notes').textContent(), /^wq: valor desconocido para precisión: «fp7»/);
  await app.page.locator('#conc').fill('-3');
  assert.equal(await app.page.locator('#conc-error').textContent(), '-3 está fuera de rango (1 a 100.000)');
  // An unknown language is named, and the page falls back to the browser's.
  const french = await WhichGpuPage.open(env.browser, `${env.server.url}?lang=fr`);
  await french.waitForResults();
  assert.match(await french.page.getByTestId('url-notes').textContent(), /lang: "fr" is not a language this page speaks/);
  assert.deepEqual([...app.consoleErrors, ...french.consoleErrors], []);
  await app.page.context().close();
  await french.page.context().close();
});
