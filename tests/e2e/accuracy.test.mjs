// Issue 28: each speed says how sure it is. A llama.cpp row's speed cell
// carries, as its tooltip, the error bands the calibration tests measured
// (the same words the tests print); its breakdown puts the band beside each
// figure and a "How sure" line per family; a vLLM row says its figures are
// not yet checked against published measurements; Spanish says it too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

test('a llama.cpp row says the calibration band of each figure, in its tooltip and its breakdown', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&runtime=llamacpp&wq=q4_k_m`);
  await app.waitForResults();
  const row = app.rows().first();
  const title = await row.locator('td').nth(6).getAttribute('title');
  // The figures are speed::accuracy's, which the calibration tests check.
  assert.match(title, /^Decode per request, Output, all requests: ±\d+% typical: the median error against \d+ published llama\.cpp decode measurements; 9 in 10 within ±\d+%\nPrefill, Time to first token: ±\d+% typical/);
  await row.getByTestId('expand-row').click();
  const details = app.page.getByTestId('row-details');
  await details.waitFor();
  const text = await details.textContent();
  assert.match(text, /Decode per request\s*[\d.,]+ tokens\/s \(±\d+%\)/);
  assert.match(text, /How sure\s*Prefill, Time to first token: ±\d+% typical/);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('a vLLM row says its figures are not yet checked, and Spanish says the bands too', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&runtime=vllm`);
  await app.waitForResults();
  const title = await app.rows().first().locator('td').nth(6).getAttribute('title');
  assert.match(title, /not yet checked against published measurements of this runtime on this hardware$/);
  await app.page.context().close();

  const es = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&runtime=llamacpp&lang=es`);
  await es.waitForResults();
  const tituloEs = await es.rows().first().locator('td').nth(6).getAttribute('title');
  assert.match(tituloEs, /±\d+ % habitual: el error mediano frente a \d+ mediciones publicadas de llama\.cpp decode/);
  await es.page.context().close();
});

test('an image pipeline can be timed compiled: the link keeps it and the band changes to the compiled rows', async () => {
  // NVIDIA GPUs, where the diffusers rows were measured (an Inferentia chip ranks first otherwise).
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?task=image&model=sd-1.5&batch=4&vendor=nvidia`);
  await app.waitForResults();
  const speedTitle = () => app.rows().first().locator('td').nth(6).getAttribute('title');
  assert.match(await speedTitle(), /published diffusers eager it\/s measurements/);
  await app.page.getByTestId('compile-select').selectOption('compiled');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('compile') === 'compiled');
  await app.page.waitForFunction(
    () => document.querySelector('[data-testid=offer-row] td:nth-child(7)')?.title.includes('torch.compile'),
  );
  assert.match(await speedTitle(), /±\d+% typical: the median error against \d+ published diffusers torch\.compile it\/s measurements/);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});
