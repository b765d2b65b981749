// The walking skeleton, end to end: dist/ in headless Chromium (issue 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

test('the page renders, loads the snapshot and lists offers with no console errors', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url);
  await app.waitForResults();
  assert.equal(await app.page.locator('h1').textContent(), 'whichgpu');
  assert.match(await app.snapshotDate(), /^20\d\d-\d\d/);
  assert.match(await app.caption(), /^[\d,]+ of [\d,]+ offers hold this workload/);
  // Llama 3.1 8B in BF16 (the default): 16.06e9 bytes = 15 GiB of weights.
  assert.match(await app.memory(), /^Memory on one GPU: 16\.4 GiB \(weights 15 GiB, KV cache 0\.3 GiB/);
  assert.ok((await app.rows().count()) > 0);
  assert.deepEqual(app.consoleErrors, []);
});

test('changing the form updates the results and the URL without new history entries', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url);
  await app.waitForResults();
  const before = { caption: await app.caption(), history: await app.page.evaluate(() => history.length) };

  await app.modelPicker().fill('llama-3.1-70b');
  await app.precisionSelect().selectOption('int4');
  // Llama 3.1 70B at 4 bits (group scales, 16-bit embeddings): 36.8 GiB.
  await app.page.locator('[data-testid=memory-summary]', { hasText: /weights 36\.8 GiB/ }).waitFor();
  assert.notEqual(await app.caption(), before.caption);
  assert.equal((await app.settledParams()).get('model'), 'llama-3.1-70b');
  assert.equal((await app.settledParams()).get('wq'), 'int4');
  assert.equal(await app.page.evaluate(() => history.length), before.history);
  assert.deepEqual(app.consoleErrors, []);
});

test('opening a shared URL restores the form and the same results', async () => {
  const first = await WhichGpuPage.open(env.browser, env.server.url);
  await first.waitForResults();
  await first.modelPicker().fill('mixtral-8x7b');
  await first.precisionSelect().selectOption('fp8');
  await first.page.locator('[data-testid=memory-summary]', { hasText: /weights 43\.7 GiB/ }).waitFor();
  await first.urlSettled();
  const shared = first.page.url();
  const expected = { caption: await first.caption(), row: await first.firstRowText() };

  const second = await WhichGpuPage.open(env.browser, shared);
  await second.waitForResults();
  assert.equal(await second.modelPicker().inputValue(), 'Mixtral 8x7B v0.1');
  assert.equal(await second.precisionSelect().inputValue(), 'fp8');
  assert.equal(await second.caption(), expected.caption);
  assert.equal(await second.firstRowText(), expected.row);
  await second.urlSettled();
  assert.equal(second.page.url(), shared);
  assert.deepEqual([...first.consoleErrors, ...second.consoleErrors], []);
});

test('dist/ works when served from a sub-path', async () => {
  const subPath = await serveDist({ prefix: '/whichgpu/' });
  try {
    const app = await WhichGpuPage.open(env.browser, subPath.url + '?model=llama-3.1-70b&wq=int8');
    await app.waitForResults();
    assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 70B');
    assert.equal(new URL(app.page.url()).pathname, '/whichgpu/');
    await app.precisionSelect().selectOption('bf16');
    await app.page.locator('[data-testid=memory-summary]', { hasText: /weights 131 GiB/ }).waitFor();
    assert.equal(new URL(app.page.url()).pathname, '/whichgpu/');
    assert.deepEqual(app.consoleErrors, []);
  } finally {
    await subPath.close();
  }
});

test('a broken link keeps what it can and says what it dropped', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?model=%3Cscript%3Ealert(1)%3C/script%3E&wq=int8');
  await app.waitForResults();
  assert.equal(await app.precisionSelect().inputValue(), 'int8');
  // The link's text stays in the model box, as text.
  assert.equal(await app.modelPicker().inputValue(), '<script>alert(1)</script>');
  assert.match(await app.page.getByTestId('url-notes').textContent(), /unknown model "<script>alert\(1\)<\/script>"/);
  assert.equal(await app.page.locator('main script').count(), 0);
});

test('a link whose model cannot be applied says so, names the model shown instead and keeps the text (issue 41)', async () => {
  for (const [lang, said, instead] of [
    ['en', /model: unknown model "llama-3\.1-7b" \(nearest: llama-3\.1-8b, llama-3\.1-70b, [^)]+\); using llama-3\.1-8b/, /unknown model "llama-3\.1-7b"/],
    ['es', /model: modelo desconocido «llama-3\.1-7b» \(los más parecidos: llama-3\.1-8b, llama-3\.1-70b, [^)]+\)/, /modelo desconocido «llama-3\.1-7b»/],
  ]) {
    const app = await WhichGpuPage.open(env.browser, env.server.url + `?model=llama-3.1-7b&lang=${lang}`);
    await app.waitForResults();
    // Above the results, before the form: what was asked, and what is shown.
    const notes = app.page.getByTestId('url-notes');
    assert.match(await notes.textContent(), said, lang);
    const [notesBox, resultsBox] = [await notes.boundingBox(), await app.page.getByTestId('results').boundingBox()];
    assert.ok(notesBox.y < resultsBox.y, lang);
    // The box keeps what the link said, with why beside it; the figures are the named model's.
    assert.equal(await app.modelPicker().inputValue(), 'llama-3.1-7b', lang);
    assert.match(await app.page.locator('#model-error').textContent(), instead, lang);
    assert.match(await app.page.getByTestId('model-facts').textContent(), /8[.,]03/, lang);
    // Picking a model takes over the box and clears the message.
    await app.modelPicker().fill('Llama 3.1 70B');
    await app.modelPicker().press('Enter');
    await app.page.waitForFunction(() => new URL(location.href).searchParams.get('model') === 'llama-3.1-70b');
    assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 70B', lang);
    assert.equal(await app.page.locator('#model-error').textContent(), '', lang);
    assert.deepEqual(app.consoleErrors, [], lang);
    await app.page.close();
  }
});

test('the model box forgives spacing and punctuation and names the tab of another kind of model (issue 40)', async () => {
  for (const [lang, otherTab, notSized] of [
    ['en', 'Parler-TTS Mini v1 is a text-to-speech model: choose the Speech tab', 'Kokoro-82M is listed, but this page cannot size it yet'],
    ['es', 'Parler-TTS Mini v1 es un modelo de texto a voz: elige la pestaña Voz', 'Kokoro-82M figura en la lista, pero esta página aún no sabe dimensionarlo'],
  ]) {
    const app = await WhichGpuPage.open(env.browser, env.server.url + `?lang=${lang}`);
    await app.waitForResults();
    // "llama3.3" found nothing before.
    await app.modelPicker().fill('llama3.3');
    await app.modelPicker().press('Enter');
    await app.page.waitForFunction(() => new URL(location.href).searchParams.get('model') === 'llama-3.3-70b');
    assert.equal(await app.modelPicker().inputValue(), 'Llama 3.3 70B Instruct', lang);
    assert.equal(await app.page.locator('#model-error').textContent(), '', lang);
    // A model of another task says which tab sizes it; one the page cannot size says so.
    await app.modelPicker().fill('parler');
    assert.equal(await app.page.locator('#model-error').textContent(), otherTab, lang);
    await app.modelPicker().fill('kokoro');
    assert.equal(await app.page.locator('#model-error').textContent(), notSized, lang);
    assert.equal(new URL(app.page.url()).searchParams.get('model'), 'llama-3.3-70b', lang);
    assert.deepEqual(app.consoleErrors, [], lang);
    await app.page.context().close();
  }
});

test('the serving load is part of the link and bad numbers are explained at the field', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?model=llama-3.1-70b&wq=awq&conc=32');
  await app.waitForResults();
  assert.equal(await app.page.locator('#conc').inputValue(), '32');
  const before = await app.caption();
  await app.page.locator('#conc').fill('-3');
  assert.equal(await app.page.locator('#conc-error').textContent(), '-3 is out of range (1 to 100,000)');
  assert.equal((await app.settledParams()).get('conc'), '32', 'a bad value leaves the link as it was');
  assert.equal(await app.caption(), before);
  await app.page.locator('#conc').fill('256');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('conc') === '256');
  assert.equal(await app.page.locator('#conc-error').textContent(), '');
  // 256 chats of 2,560 tokens hold 200 GB of KV cache: fewer offers fit.
  assert.notEqual(await app.caption(), before);
  await app.page.getByTestId('runtime-select').selectOption('llamacpp');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('runtime') === 'llamacpp');
  assert.deepEqual(app.consoleErrors, []);
});

test('a QLoRA fine-tune sizes adapters and optimizer state, and a full fine-tune needs far more', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?task=finetune&model=llama-3.1-8b&method=qlora&ce=chunked');
  await app.waitForResults();
  // Serving fields give way to training ones.
  assert.equal(await app.page.locator('#conc').count(), 0);
  assert.equal(await app.page.getByTestId('method-select').inputValue(), 'qlora');
  const qlora = await app.memory();
  assert.match(qlora, /^Memory on one GPU: .*weights 5\.3 GiB, adapters .*optimizer .*activations/);
  const qloraCaption = await app.caption();
  await app.page.getByTestId('method-select').selectOption('full');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('method') === 'full');
  assert.notEqual(await app.caption(), qloraCaption);
  // Mixed precision is the default recipe: FP32 master weights and Adam
  // moments, 16 B per parameter, more than an 80 GB card holds for 8B.
  assert.equal(await app.page.getByTestId('recipe-select').inputValue(), 'mixed');
  const mixed = await app.memory();
  assert.match(mixed, /Recipe: Mixed precision: FP32 master weights/);
  assert.ok(parseFloat(mixed.match(/^Memory on one GPU: ([\d.,]+) GiB/)[1].replace(/,/g, '')) > 80, mixed);
  // torchtune's pure BF16 holds half the states: the figure the page gave before.
  await app.page.getByTestId('recipe-select').selectOption('bf16');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('recipe') === 'bf16');
  await app.page.locator('[data-testid=memory-summary]', { hasText: /Recipe: Pure BF16/ }).waitFor();
  const pure = await app.memory();
  assert.ok(parseFloat(pure.match(/^Memory on one GPU: ([\d.,]+) GiB/)[1].replace(/,/g, '')) < 80, pure);
  await app.page.getByTestId('recipe-select').selectOption('mixed');
  // Sharding the optimizer state over 8 GPUs with ZeRO-3 cuts the per-GPU need.
  await app.page.locator('#gpus').fill('8');
  await app.page.locator('#zero').fill('3');
  await app.page.getByText(/^Memory per GPU of 8:/).waitFor();
  assert.equal((await app.settledParams()).get('zero'), '3');
  assert.deepEqual(app.consoleErrors, []);
});

test('a custom model is sized from its numbers and kept in the link', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url);
  await app.waitForResults();
  await app.modelPicker().fill('custom');
  for (const [key, value] of [['params', '7e10'], ['layers', '80'], ['hidden', '8192'], ['heads', '64'], ['kv_heads', '8']]) {
    await app.page.locator('#' + key).fill(value);
  }
  // 70B parameters in BF16: 1.4e11 bytes = 130 GiB.
  await app.page.locator('[data-testid=memory-summary]', { hasText: /weights 130 GiB/ }).waitFor();
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('kv_heads') === '8');
  assert.equal((await app.settledParams()).get('model'), 'custom');
  assert.equal((await app.settledParams()).get('params'), '70000000000');
  await app.urlSettled();
  const reopened = await WhichGpuPage.open(env.browser, app.page.url());
  await reopened.waitForResults();
  assert.match(await reopened.memory(), /weights 130 GiB/);
  assert.equal(await reopened.page.locator('#layers').inputValue(), '80');
  await app.page.locator('#params').fill('1e30');
  assert.match(await app.page.locator('#params-error').textContent(), /out of range/);
  assert.deepEqual([...app.consoleErrors, ...reopened.consoleErrors], []);
});

test('a workload no node holds is served on clusters, or says what even the largest node would need', async () => {
  // 2 trillion parameters in FP32: only clusters of nodes hold it (issue 24)…
  const query = '?model=custom&params=2e12&layers=200&hidden=32768&wq=fp32';
  const app = await WhichGpuPage.open(env.browser, env.server.url + query);
  await app.waitForResults();
  assert.match(await app.rows().first().locator('td').nth(1).textContent(), /^\d+ × /);
  // …and with llama.cpp, which does not serve across nodes, nothing does.
  await app.page.goto(env.server.url + query + '&runtime=llamacpp');
  await app.page.getByText(/^None of the [\d,]+ offers holds this workload\. No single node holds this workload: even \d+×/).waitFor();
  assert.equal(await app.rows().count(), 0);
  assert.deepEqual(app.consoleErrors, []);
});

test('back and forward move between distinct shared states', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?model=llama-3.1-70b&wq=awq');
  await app.waitForResults();
  await app.page.goto(env.server.url + '?task=image&n=500');
  await app.waitForResults();
  assert.equal(await app.chosenTask(), 'image');
  await app.page.goBack();
  await app.waitForResults();
  assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 70B');
  assert.equal(await app.precisionSelect().inputValue(), 'awq');
  await app.page.goForward();
  await app.waitForResults();
  assert.equal(await app.page.locator('#n').inputValue(), '500');
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});
