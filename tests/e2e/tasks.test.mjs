// Image, video and audio jobs in the page (issue 4): each task tab shows
// its own fields and models, sizes memory as the CLI does for the same
// query, and keeps every field in the link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

/** The CLI's per-GPU need for `query` on one GPU, in the page's "GB" (GiB). */
function cliPerGpuGb(query) {
  const out = execFileSync('cargo', ['run', '-q', '--', 'estimate', '--config', query, '--gpu', 'h100_sxm', '--json'], {
    encoding: 'utf8',
  });
  return JSON.parse(out).memory.per_gpu_bytes / 2 ** 30;
}

/** The "Memory on one GPU: X GB" figure of the page. */
async function pagePerGpuGb(app) {
  const match = (await app.memory()).match(/^Memory on one GPU: ([\d.]+) GB/);
  assert.ok(match, await app.memory());
  return Number(match[1]);
}

async function waitForParam(app, key, value) {
  await app.page.waitForFunction(([k, v]) => new URL(location.href).searchParams.get(k) === v, [key, value]);
}

test('each task tab shows its own models and fields, and sizes memory as the CLI does', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url);
  await app.waitForResults();
  const tasks = app.page.getByTestId('task-select');
  for (const [task, model, field, speed] of [
    ['image', 'sdxl-base-1.0', '#res', /^[\d.]+ s\/image(memory|compute|interconnect)-bound$/],
    ['video', 'wan2.1-t2v-1.3b', '#frames', /^[\d.]+ s\/clip(memory|compute|interconnect)-bound$/],
    ['audio', 'whisper-large-v3', '#hours', /^[\d.]+× real time(memory|compute|interconnect)-bound$/],
  ]) {
    await tasks.selectOption(task);
    await waitForParam(app, 'task', task);
    assert.equal(await app.modelSelect().inputValue(), model);
    await app.page.locator(field).waitFor();
    // LLM-only fields are gone, and the picker offers only this task's models.
    assert.equal(await app.page.locator('#conc').count(), 0);
    const offered = await app.modelSelect().locator('option').evaluateAll((options) => options.map((o) => o.value));
    assert.ok(!offered.includes('llama-3.1-8b') && !offered.includes('custom'), offered.join());
    await app.waitForResults();
    const shown = await pagePerGpuGb(app);
    const cli = cliPerGpuGb(new URL(app.page.url()).search.slice(1));
    assert.ok(Math.abs(shown - cli) <= 0.05 + cli * 0.005, `${task}: page ${shown} GB, CLI ${cli.toFixed(2)} GB`);
    assert.match(await app.page.getByTestId('offer-speed').first().textContent(), speed);
  }
  // Back to LLM serving: the default model returns.
  await tasks.selectOption('infer');
  await waitForParam(app, 'task', null);
  assert.equal(await app.modelSelect().inputValue(), 'llama-3.1-8b');
  assert.deepEqual(app.consoleErrors, []);
});

test('an image job follows resolution, batch and offload, with the model default as the hint', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?task=image&model=flux.1-dev');
  await app.waitForResults();
  const res = app.page.locator('#res');
  assert.equal(await res.getAttribute('placeholder'), '1024x1024');
  const base = await pagePerGpuGb(app);
  // FLUX.1-dev BF16: 31.4 GB of weights (16.87B parameters × 2 bytes).
  assert.match(await app.memory(), /weights 31\.4 GB/);
  await res.fill('2048x2048');
  await waitForParam(app, 'res', '2048x2048');
  assert.ok((await pagePerGpuGb(app)) > base);
  await res.fill('2048 by 2048');
  assert.match(await app.page.locator('#res-error').textContent(), /not WIDTHxHEIGHT/);
  assert.equal(app.params().get('res'), '2048x2048');
  await res.fill('');
  await waitForParam(app, 'res', null);
  await app.page.getByTestId('offload-select').selectOption('text');
  await waitForParam(app, 'offload', 'text');
  // Without T5-XXL and CLIP-L (4.885B × 2 bytes = 9.1 GB) on the GPU.
  assert.match(await app.memory(), /weights 22\.3 GB/);
  assert.deepEqual(app.consoleErrors, []);
});

test('a video link restores its frames and resolution, and audio keeps its hours', async () => {
  const video = await WhichGpuPage.open(env.browser, env.server.url + '?task=video&model=hunyuanvideo&res=960x544&frames=129');
  await video.waitForResults();
  assert.equal(await video.page.locator('#frames').inputValue(), '129');
  assert.equal(await video.page.locator('#res').inputValue(), '960x544');
  assert.equal(await video.modelSelect().inputValue(), 'hunyuanvideo');
  const audio = await WhichGpuPage.open(env.browser, env.server.url + '?task=audio');
  await audio.waitForResults();
  await audio.page.locator('#hours').fill('250');
  await audio.page.locator('#batch').fill('8');
  await waitForParam(audio, 'batch', '8');
  assert.equal(audio.params().get('hours'), '250');
  assert.match(await audio.memory(), /KV cache/);
  assert.deepEqual([...video.consoleErrors, ...audio.consoleErrors], []);
});

test('every offer shows its speed estimate and what bounds it', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url);
  await app.waitForResults();
  const first = app.page.getByTestId('offer-speed').first();
  assert.match(await first.textContent(), /^[\d.]+ tok\/s each, [\d.]+ total(memory|compute|interconnect)-bound$/);
  assert.match(await app.page.getByTestId('speed-note').textContent(), /^Speeds are estimates .* (memory|compute|interconnect)-bound/);
  await app.page.getByTestId('task-select').selectOption('finetune');
  await waitForParam(app, 'task', 'finetune');
  await app.waitForResults();
  assert.match(await app.page.getByTestId('offer-speed').first().textContent(), /^[\d.]+ tok\/s(compute|interconnect)-bound$/);
  assert.deepEqual(app.consoleErrors, []);
});

test('a batch job is ranked by its whole cost with spot, advice and the objective in the link', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?task=image&n=10000');
  await app.waitForResults();
  assert.match(await app.caption(), /offers hold this workload.*cheapest whole job:$/);
  // Each row shows its job time, billed cost and cost per 1,000 images; spot rows say so.
  assert.match(await app.page.getByTestId('offer-cost').first().textContent(), /^\$[\d,.]+( \+\?)?$/);
  assert.match(await app.page.getByTestId('offer-unit-cost').first().textContent(), /^\$[\d,.]+ \/ 1,000 images$/);
  assert.ok((await app.page.locator('[data-testid=offer-price] .spot').count()) > 0);
  assert.match(await app.page.getByTestId('advice').textContent(), /Spot saves \d+% on the whole job/);
  // Ranking for speed instead puts it in the link and reorders the table.
  const cheapest = await app.firstRowText();
  await app.page.getByTestId('objective-select').selectOption('fast');
  await waitForParam(app, 'obj', 'fast');
  assert.match(await app.caption(), /fastest:$/);
  assert.notEqual(await app.firstRowText(), cheapest);
  // On-demand only: no spot rows are left.
  await app.page.getByTestId('spot-select').selectOption('no');
  await waitForParam(app, 'spot', 'no');
  await app.waitForResults();
  assert.equal(await app.page.locator('[data-testid=offer-price] .spot').count(), 0);
  assert.deepEqual(app.consoleErrors, []);
});

test('serving leaves spot out and says why; filters narrow the offers', async () => {
  const app = await WhichGpuPage.open(env.browser, env.server.url + '?max_ph=2&max_gpus=1');
  await app.waitForResults();
  assert.match(await app.page.getByTestId('advice').textContent(), /Spot prices are left out: .*always-on endpoint/);
  assert.equal(await app.page.locator('[data-testid=offer-price] .spot').count(), 0);
  const prices = await app.page.getByTestId('offer-price').allTextContents();
  assert.ok(prices.every((p) => Number(p.replace(/[^\d.]/g, '')) <= 2), prices.join());
  const gpus = await app.page.locator('[data-testid=offers-table] tbody tr td:nth-child(3)').allTextContents();
  assert.ok(gpus.every((g) => g.startsWith('1×')), gpus.join());
  assert.deepEqual(app.consoleErrors, []);
});
