// What runs where (issue 23): no row pairs a runtime with hardware or a
// format the cited documentation says it cannot run; the offers left out
// say why in both languages; each serving row names its runtime; and the
// form says when nothing in the offers runs the chosen runtime or format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

/** The cells of one CSV line, with RFC 4180 quotes ("1,234 tokens/s"). */
function csvCells(line) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') { cell += '"'; i += 1; }
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) { cells.push(cell); cell = ''; }
    else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** Every ranked row of the page, from its CSV export (the table shows a page at a time). */
async function exportedRows(app) {
  const [download] = await Promise.all([app.page.waitForEvent('download'), app.page.getByTestId('export-csv').click()]);
  const lines = (await fs.readFile(await download.path(), 'utf8')).slice(1).trim().split('\n');
  const header = csvCells(lines[0]);
  return lines.slice(1).map((line) => {
    const cells = csvCells(line);
    return { gpu: cells[header.indexOf('gpu')], runtime: cells[header.indexOf('runtime')] };
  });
}

/** The offers left out, opened, as text. */
async function leftOut(app) {
  const excluded = app.page.getByTestId('excluded');
  await excluded.locator('summary').click();
  await excluded.locator('li').first().waitFor();
  return excluded.textContent();
}

test('a TensorRT-LLM link ranks no AMD, TPU, Inferentia or Volta offer, and says why in English and Spanish', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&runtime=trtllm&spot=yes`);
  await app.waitForResults();
  const rows = await exportedRows(app);
  assert.ok(rows.length > 100, `${rows.length} rows`);
  const ruledOut = /^(mi\d|radeon|rx_|tpu_|inferentia|trainium|gaudi|v100|t4$|k80|m60|p100|p4$)/;
  assert.deepEqual(rows.filter((r) => ruledOut.test(r.gpu)), []);
  assert.ok(rows.every((r) => r.runtime === 'trtllm'), 'every row is served by the runtime asked for');
  // The table says it too, under the GPUs.
  assert.equal(await app.rows().first().locator('td .runtime').textContent(), 'TensorRT-LLM');
  const english = await leftOut(app);
  assert.match(english, /TensorRT-LLM does not run on Instinct MI300X OAM \(AMD CDNA3\); it runs on NVIDIA \(compute capability 8\.0\+\)/);
  assert.match(english, /TensorRT-LLM does not run on TPU v5e[^;]*\(Google TPU\)/);
  assert.match(english, /TensorRT-LLM does not run on Inferentia Inferentia chip \(Inf1; 4x NeuronCore-v1\) \(AWS NeuronCore-v1\)/);
  assert.match(english, /TensorRT-LLM does not run on V100[^;]*\(Volta, compute capability 7\.0\)/);
  await app.page.context().close();

  const es = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&runtime=trtllm&lang=es`);
  await es.waitForResults();
  const spanish = await leftOut(es);
  assert.match(spanish, /TensorRT-LLM no funciona en Instinct MI300X OAM \(AMD CDNA3\); funciona en NVIDIA \(capacidad de cómputo 8\.0\+\)/);
  assert.match(spanish, /\(Volta, capacidad de cómputo 7\.0\)/);
  assert.deepEqual([...app.consoleErrors, ...es.consoleErrors], []);
  await es.page.context().close();
});

test('the automatic runtime is the default, stays out of the link, and names what it chose per row', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&vendor=amd&spot=yes`);
  await app.waitForResults();
  assert.equal(await app.page.getByTestId('runtime-select').inputValue(), 'auto');
  assert.equal((await app.settledParams()).get('runtime'), null);
  const rows = await exportedRows(app);
  // vLLM on ROCm's Instinct GPUs; llama.cpp (Vulkan) on the Radeons vLLM lacks.
  assert.ok(rows.some((r) => r.gpu === 'mi300x' && r.runtime === 'vllm'), JSON.stringify(rows.slice(0, 5)));
  assert.ok(rows.filter((r) => r.gpu === 'radeon_pro_v520').every((r) => r.runtime === 'llamacpp'));
  // Choosing a runtime puts it in the link; the rows follow it.
  await app.page.getByTestId('runtime-select').selectOption('llamacpp');
  assert.equal((await app.settledParams()).get('runtime'), 'llamacpp');
  await app.page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=offer-row] td .runtime')].every((s) => s.textContent === 'llama.cpp'));
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('the form says beside the runtime when nothing in the offers runs it, and what would', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&wq=q4_k_m&runtime=trtllm`);
  const note = app.page.getByTestId('runtime-select-note');
  await app.page.waitForFunction(() => document.querySelector('[data-testid=runtime-select-note]')?.textContent.length > 0);
  assert.equal(
    await note.textContent(),
    'No GPU in these offers runs GGUF Q4_K_M weights with TensorRT-LLM; these runtimes would: vLLM, llama.cpp, HF transformers.',
  );
  assert.equal(await app.page.locator('#runtime').getAttribute('aria-describedby'), 'runtime-note');
  // In Spanish too, and gone once a runtime that runs it is chosen.
  await app.page.getByTestId('language-select').selectOption('es');
  await app.page.waitForFunction(() => document.querySelector('[data-testid=runtime-select-note]')?.textContent.startsWith('Ninguna GPU'));
  await app.page.getByTestId('runtime-select').selectOption('llamacpp');
  await app.page.waitForFunction(() => document.querySelector('[data-testid=runtime-select-note]')?.textContent === '');
  await app.waitForResults();
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});
