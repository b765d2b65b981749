// Model import (issue 25): a config.json dropped or pasted, a .safetensors
// header picked, and a Hugging Face id fetched, each sizing the model in
// the browser with nothing uploaded; the link then carries the model, so
// it reproduces the same figures without the file. The Hub is a loopback
// server here, answering for https://huggingface.co, the one origin the
// page's policy lets it reach; hostile files leave the page as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/model_configs');
const fixture = (name) => readFileSync(path.join(FIXTURES, name), 'utf8');

// The Hub, on loopback: a public repo with its index, a gated one (401, as
// the Hub answers without a token) and one without a config (404).
let hub;
const hubRequests = [];
before(async () => {
  hub = http.createServer((request, response) => {
    hubRequests.push(request.url);
    const send = (status, body = '') => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      response.end(body);
    };
    if (request.url === '/Qwen/Qwen3-8B/resolve/main/config.json') return send(200, fixture('qwen3-8b.json'));
    if (request.url === '/Qwen/Qwen3-8B/resolve/main/model.safetensors.index.json') {
      // 8,190,735,360 BF16 parameters: 16,381,470,720 bytes.
      return send(200, JSON.stringify({ metadata: { total_size: 16381470720 }, weight_map: { 'lm_head.weight': 'model-00005-of-00005.safetensors' } }));
    }
    if (request.url.startsWith('/meta-llama/')) return send(401, '{"error":"Access to model meta-llama/Llama-3.1-8B is restricted."}');
    return send(404, '{"error":"Entry not found"}');
  });
  await new Promise((resolve) => hub.listen(0, '127.0.0.1', resolve));
});
after(() => hub.close());

/** Opens the page with the Hub's origin answered by the loopback server, and every request beyond the page's own origin recorded. */
async function open(query, options = {}) {
  const context = await env.browser.newContext(options);
  const elsewhere = [];
  await context.route('https://huggingface.co/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `http://127.0.0.1:${hub.address().port}${url.pathname}` });
    await route.fulfill({ response });
  });
  const app = new WhichGpuPage(await context.newPage());
  app.page.on('request', (request) => {
    if (!request.url().startsWith(env.server.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  app.elsewhere = elsewhere;
  await app.page.goto(`${env.server.url}?${query}`);
  await app.waitForResults();
  await app.page.getByTestId('model-import').locator('summary').click();
  // Its controls come with the second module: wait for them to be drawn.
  await app.page.getByTestId('drop-zone').waitFor();
  return app;
}

/** Drops files (name → text or bytes) on the drop zone, as a user dragging them from a file manager. */
async function drop(app, files) {
  const transfer = await app.page.evaluateHandle((files) => {
    const transfer = new DataTransfer();
    for (const [name, content] of files) transfer.items.add(new File([new Uint8Array(content)], name));
    return transfer;
  }, files.map(([name, content]) => [name, [...Buffer.from(content)]]));
  await app.page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
}

const status = (app) => app.page.getByTestId('import-status').textContent();

/** A text once it has stopped changing for 300 ms. */
async function steady(read) {
  let last = await read();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = await read();
    if (now === last) return now;
    last = now;
  }
}
const facts = (app) => app.page.getByTestId('model-facts').textContent();

/** A safetensors header of a small Llama-shaped model: 2 layers of width 256, vocab 1,000, BF16. */
function tinySafetensors() {
  const tensors = {};
  let offset = 0;
  const add = (name, shape) => {
    const bytes = shape.reduce((a, b) => a * b, 1) * 2;
    tensors[name] = { dtype: 'BF16', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  };
  add('model.embed_tokens.weight', [1000, 256]);
  for (const layer of [0, 1]) {
    const p = `model.layers.${layer}`;
    add(`${p}.input_layernorm.weight`, [256]);
    add(`${p}.self_attn.q_proj.weight`, [256, 256]);
    add(`${p}.self_attn.k_proj.weight`, [128, 256]);
    add(`${p}.self_attn.v_proj.weight`, [128, 256]);
    add(`${p}.self_attn.o_proj.weight`, [256, 256]);
    add(`${p}.post_attention_layernorm.weight`, [256]);
    add(`${p}.mlp.gate_proj.weight`, [512, 256]);
    add(`${p}.mlp.up_proj.weight`, [512, 256]);
    add(`${p}.mlp.down_proj.weight`, [256, 512]);
  }
  add('model.norm.weight', [256]);
  add('lm_head.weight', [1000, 256]);
  const header = Buffer.from(JSON.stringify({ __metadata__: { format: 'pt' }, ...tensors }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  // The header only: the page reads no further.
  return { bytes: Buffer.concat([length, header]), params: offset / 2 };
}

test('a dropped config.json sizes the model, and its link reproduces the figures without the file', async () => {
  const app = await open('model=llama-3.1-8b');
  const before = await app.memory();
  await drop(app, [['config.json', fixture('gemma-2-9b-it.json')]]);
  await app.page.getByTestId('import-status').filter({ hasText: 'Gemma2ForCausalLM' }).waitFor();
  // Gemma 2 9B: 9,241,705,984 parameters (the Gemma 2 report), a 4,096-token window on half its layers.
  await app.page.getByTestId('model-facts').filter({ hasText: '9.24 B parameters' }).waitFor();
  assert.match(await facts(app), /4,096-token window on 50% of layers/);
  const params = await app.settledParams();
  assert.equal(params.get('model'), 'custom');
  assert.equal(params.get('params'), '9241705984');
  assert.equal(params.get('window'), '4096');
  const memory = await app.memory();
  assert.notEqual(memory, before);
  const first = await app.firstRowText();
  // The link alone, in a fresh page: the same model, memory and first offer.
  const again = await WhichGpuPage.open(env.browser, app.page.url());
  await again.waitForResults();
  assert.equal(await again.memory(), memory);
  assert.equal(await again.firstRowText(), first);
  assert.match(await again.page.getByTestId('model-facts').textContent(), /9\.24 B parameters/);
  assert.deepEqual(app.elsewhere, [], 'nothing is sent anywhere');
  // Picking a catalog model again: what was read is no longer said.
  await app.modelPicker().fill('Llama 3.1 8B');
  await app.page.waitForFunction(() => new URL(location.href).searchParams.get('model') === null);
  await app.page.getByTestId('import-status').waitFor({ state: 'detached' });
  assert.equal(await app.memory(), before);
  assert.deepEqual([...app.consoleErrors, ...again.consoleErrors], []);
  await again.page.context().close();
  await app.page.context().close();
});

test('a picked .safetensors header and a pasted config, in Spanish', async () => {
  const app = await open('model=llama-3.1-8b&lang=es');
  const tiny = tinySafetensors();
  await app.page.locator('#model-files').setInputFiles({ name: 'tiny-llama.safetensors', mimeType: 'application/octet-stream', buffer: tiny.bytes });
  await app.page.getByTestId('import-status').filter({ hasText: 'safetensors' }).waitFor();
  assert.match(await status(app), /^Leído un /);
  let params = await app.settledParams();
  assert.equal(Number(params.get('params')), tiny.params);
  assert.equal(Number(params.get('wbytes')), tiny.params * 2, 'the exact bytes of the header');
  assert.equal(params.get('mname'), 'tiny-llama');
  // A pasted Mixtral config: its experts and their routing come with it.
  await app.page.locator('#model-paste').fill(fixture('mixtral-8x7b-instruct-v0.1.json'));
  await app.page.getByTestId('paste-read').click();
  await app.page.getByTestId('model-facts').filter({ hasText: '46,7 B parámetros' }).waitFor();
  assert.match(await facts(app), /12,9 B activos/);
  params = await app.settledParams();
  assert.equal(params.get('experts'), '8');
  assert.equal(params.get('topk'), '2');
  assert.deepEqual(app.elsewhere, []);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

for (const lang of ['en', 'es']) {
  test(`the Hub, in ${lang}: fetched on request from its one origin; gated and missing repos are said`, async () => {
    const app = await open(`model=llama-3.1-8b&lang=${lang}`);
    assert.deepEqual(app.elsewhere, [], 'no request to the Hub before the button');
    await app.page.locator('#hub-id').fill('https://huggingface.co/Qwen/Qwen3-8B');
    await app.page.getByTestId('hub-fetch').click();
    await app.page.getByTestId('import-status').filter({ hasText: 'Qwen3ForCausalLM' }).waitFor();
    const params = await app.settledParams();
    assert.equal(params.get('params'), '8190735360');
    assert.equal(params.get('wbytes'), '16381470720', 'the index gives the exact weight bytes');
    assert.equal(params.get('mname'), 'Qwen/Qwen3-8B');
    assert.ok(app.elsewhere.length > 0 && app.elsewhere.every((url) => url.startsWith('https://huggingface.co/Qwen/Qwen3-8B/resolve/main/')), app.elsewhere.join('\n'));
    const memory = await app.memory();
    // Gated: the Hub asks for a sign-in, and the model stays.
    await app.page.locator('#hub-id').fill('meta-llama/Llama-3.1-8B');
    await app.page.getByTestId('hub-fetch').click();
    const gated = lang === 'en' ? 'asks for a sign-in for meta-llama/Llama-3.1-8B' : 'pide iniciar sesión para meta-llama/Llama-3.1-8B';
    await app.page.getByTestId('import-status').filter({ hasText: gated }).waitFor();
    // Missing, and not an id at all.
    await app.page.locator('#hub-id').fill('nobody/nothing');
    await app.page.getByTestId('hub-fetch').click();
    await app.page.getByTestId('import-status').filter({ hasText: lang === 'en' ? 'nobody/nothing has no config.json' : 'nobody/nothing no tiene config.json' }).waitFor();
    await app.page.locator('#hub-id').fill('not an id');
    await app.page.getByTestId('hub-fetch').click();
    await app.page.getByTestId('import-status').filter({ hasText: lang === 'en' ? 'is not a Hugging Face id' : 'no es un id de Hugging Face' }).waitFor();
    assert.equal((await app.settledParams()).get('mname'), 'Qwen/Qwen3-8B', 'the model read last stays');
    assert.equal(await app.memory(), memory);
    // The refused answers are the only errors the console saw.
    assert.ok(app.consoleErrors.every((e) => /401|404|Failed to load resource/.test(e)), app.consoleErrors.join('\n'));
    await app.page.context().close();
  });
}

test('hostile files are refused with what is wrong, and the page and the model stay as they were', async () => {
  const app = await open('model=llama-3.1-70b&wq=int4');
  const memory = await app.memory();
  const first = await app.firstRowText();
  const unchanged = async () => {
    const params = await app.settledParams();
    assert.equal(params.get('model'), 'llama-3.1-70b');
    assert.equal(await app.memory(), memory);
  };
  // A 50 MB paste is refused as it is pasted: the box stays empty, so the
  // browser never lays out 50 MB of text (which froze the page for over
  // 30 s on a CI machine when the test put it in the box).
  const pasted = await app.page.evaluate(() => {
    const area = document.querySelector('#model-paste');
    const data = new DataTransfer();
    data.setData('text/plain', `{"a": "${'x'.repeat(50 * 1024 * 1024)}"}`);
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    area.dispatchEvent(event);
    return { refused: event.defaultPrevented, value: area.value.length };
  });
  assert.deepEqual(pasted, { refused: true, value: 0 });
  await app.page.getByTestId('import-status').filter({ hasText: 'is more than a model description can be' }).waitFor();
  await unchanged();
  // A paste of a config's size goes into the box as usual.
  const small = await app.page.evaluate(() => {
    const data = new DataTransfer();
    data.setData('text/plain', '{"model_type": "llama"}');
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    document.querySelector('#model-paste').dispatchEvent(event);
    return event.defaultPrevented;
  });
  assert.equal(small, false);
  // A GGUF whose header claims 10^18 tensors.
  const lying = Buffer.alloc(24);
  lying.write('GGUF', 0);
  lying.writeUInt32LE(3, 4);
  lying.writeBigUInt64LE(10n ** 18n, 8);
  lying.writeBigUInt64LE(3n, 16);
  await drop(app, [['evil.gguf', lying]]);
  await app.page.getByTestId('import-status').filter({ hasText: 'GGUF' }).waitFor();
  await unchanged();
  // JSON of the wrong types, nested junk, and a binary that is not a model.
  for (const [name, content, said] of [
    ['config.json', '{"model_type": "llama", "num_hidden_layers": 1e300, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 11008}', '«num_hidden_layers»'],
    ['config.json', `${'['.repeat(100000)}${']'.repeat(100000)}`, 'not valid JSON'],
    ['picture.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'not valid JSON'],
    ['config.json', '{"architectures": ["T5ForConditionalGeneration"], "model_type": "t5"}', 'T5ForConditionalGeneration'],
  ]) {
    await drop(app, [[name, content]]);
    await app.page.getByTestId('import-status').filter({ hasText: said }).waitFor();
    await unchanged();
  }
  // Still usable: the results are there, and a good file is read.
  assert.equal(await app.firstRowText(), first);
  await drop(app, [['config.json', fixture('qwen2.5-7b.json')]]);
  await app.page.getByTestId('model-facts').filter({ hasText: '7.62 B parameters' }).waitFor();
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('every real config of the fixtures makes a link that shows the same memory and facts without the file', async () => {
  const published = readFileSync(path.join(FIXTURES, 'published.csv'), 'utf8').trim().split('\n').slice(1);
  const files = published.map((line) => line.split(',')[0]);
  assert.ok(files.length >= 20, `${files.length} configs`);
  const app = await open('model=llama-3.1-8b');
  const links = [];
  for (const file of files) {
    await app.page.locator('#model-paste').fill(fixture(file));
    await app.page.getByTestId('paste-read').click();
    await app.page.getByTestId('import-status').filter({ hasText: 'Read a ' }).waitFor();
    await app.settledParams();
    links.push({ file, url: app.page.url(), memory: await steady(() => app.memory()), facts: await facts(app) });
  }
  const again = await WhichGpuPage.open(env.browser, env.server.url);
  for (const { file, url, memory, facts: said } of links) {
    await again.page.goto(url);
    await again.waitForResults();
    assert.equal(await steady(() => again.memory()), memory, file);
    assert.equal(await again.page.getByTestId('model-facts').textContent(), said, file);
  }
  assert.deepEqual([...app.consoleErrors, ...again.consoleErrors], []);
  await again.page.context().close();
  await app.page.context().close();
});
