// Issue 26: vision-language serving and audio generation, driven in
// Chromium in both languages. A vision-language model shows its image
// fields, and more images per request raise the KV cache and the time to
// the first token; the speech and music tabs say what they do, take a clip
// length, and a clip twice as long takes about twice as long.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

const WORDS = {
  en: {
    speechHint: 'Text to speech',
    musicHint: 'Generate music or sound effects',
    tower: 'vision tower 0.68 B',
    perImages: /\$[\d.,]+ per 1,000 images described/,
    ttft: 'Time to first token',
    clip: 'Seconds to a clip',
    decodes: 'lm decodes 50.0 steps per second of audio',
    perRequests: /^\$[\d,.]+\nper 1,000 requests$/,
    batchLabel: 'Batch job: requests to run once (0: an endpoint)',
  },
  es: {
    speechHint: 'De texto a voz',
    musicHint: 'Genera música o efectos de sonido',
    tower: 'torre de visión de 0,68 B',
    perImages: /[\d.,]+\sUS\$ por 1000 imágenes descritas/,
    ttft: 'Tiempo hasta el primer token',
    clip: 'Segundos hasta un clip',
    decodes: 'lm decodifica 50,0 pasos por segundo de audio',
    perRequests: /^[\d.,]+\sUS\$\npor 1000 peticiones$/,
    batchLabel: 'Trabajo por lotes: peticiones a procesar una vez (0: un endpoint)',
  },
};

/** A number as the page writes it in `lang` ("1,234.5" or "1.234,5"). */
function number(text, lang) {
  const digits = lang === 'es' ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  return Number(digits);
}

/** GB per GPU in the memory line. */
async function memoryGb(app, lang) {
  const match = (await app.memory()).match(/: ([\d.,]+) GiB/);
  return number(match[1], lang);
}

/** Opens the first row's breakdown and returns the value of the line labelled `label`. */
async function detail(app, label) {
  const details = app.page.getByTestId('row-details');
  if (!(await details.isVisible())) await app.rows().first().getByTestId('expand-row').click();
  await details.waitFor();
  const text = await details.textContent();
  const at = text.indexOf(label);
  assert.ok(at >= 0, `${label} in ${text}`);
  return text.slice(at + label.length, at + label.length + 40);
}

/** Types `value` into the field of link key `key` and waits for the link to carry it. */
async function setField(app, key, value) {
  await app.page.locator(`#${key}`).fill(String(value));
  await app.page.locator(`#${key}`).press('Tab');
  await app.page.waitForFunction(([k, v]) => new URL(location.href).searchParams.get(k) === v, [key, String(value)]);
  await app.waitForResults();
}

for (const lang of ['en', 'es']) {
  const words = WORDS[lang];

  test(`${lang}: a vision-language model takes images, and more of them raise the cache and the first token's wait`, async () => {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=qwen2-vl-7b&gpu=h100&lang=${lang}`);
    await app.waitForResults();
    // The facts line names the tower; the image fields are there, one image of 1,024 px by default.
    await app.page.getByTestId('model-facts').filter({ hasText: words.tower }).waitFor();
    assert.equal(await app.page.locator('#imgs').getAttribute('placeholder'), '1');
    assert.equal(await app.page.locator('#img_px').getAttribute('placeholder'), '1024');
    const firstWait = async () => number((await detail(app, words.ttft)).match(/[\d.,]+/)[0], lang);
    await detail(app, words.ttft);
    const breakdown = await app.page.getByTestId('row-details').textContent();
    assert.match(breakdown, words.perImages, breakdown);
    const [memoryOne, ttftOne] = [await memoryGb(app, lang), await firstWait()];
    await setField(app, 'imgs', 8);
    const [memoryEight, ttftEight] = [await memoryGb(app, lang), await firstWait()];
    assert.ok(memoryEight > memoryOne, `${memoryEight} > ${memoryOne}`);
    assert.ok(ttftEight > 2 * ttftOne, `${ttftEight} > 2 × ${ttftOne}`);
    // A text model has no image fields.
    await app.modelPicker().fill('llama-3.1-8b');
    await app.modelPicker().press('Enter');
    await app.page.locator('#imgs').waitFor({ state: 'detached' });
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  });

  test(`${lang}: 100,000 document pages run once as a batch job, priced per 1,000 requests, not as an endpoint (issue 40)`, async () => {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=qwen2.5-vl-7b&in=600&out=300&lang=${lang}`);
    await app.waitForResults();
    // An endpoint: up so many hours a day, for so many requests a day.
    await app.page.locator('#uptime').waitFor();
    assert.equal(await app.page.locator('label[for=reqs]').textContent(), words.batchLabel);
    const endpointUnit = await app.rows().first().getByTestId('offer-unit-cost').innerText();
    assert.doesNotMatch(endpointUnit, words.perRequests);
    // An endpoint is billed its month: 30.4 days.
    assert.match(await app.page.getByTestId('offer-job').first().innerText(), /^30[.,]4 d/);
    await setField(app, 'reqs', 100000);
    // A batch: the runs a month instead of uptime, requests a day and concurrency.
    await app.page.locator('#runs').waitFor();
    for (const gone of ['uptime', 'rpd', 'conc']) await app.page.locator(`#${gone}`).waitFor({ state: 'detached' });
    assert.match(await app.rows().first().getByTestId('offer-unit-cost').innerText(), words.perRequests);
    // Its job time is its hours of work, not the month an endpoint is billed.
    assert.match(await app.page.getByTestId('offer-job').first().innerText(), /^[\d.,]+ h\n/);
    // Back to an endpoint with 0, which the link leaves out.
    await app.page.locator('#reqs').fill('0');
    await app.page.locator('#reqs').press('Tab');
    await app.page.waitForFunction(() => !new URL(location.href).searchParams.has('reqs'));
    await app.page.locator('#uptime').waitFor();
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  });

  test(`${lang}: the speech and music tabs say what they do, and a clip twice as long takes about twice as long`, async () => {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?lang=${lang}`);
    await app.waitForResults();
    await app.chooseTask('speech');
    await app.page.getByTestId('task-hint').filter({ hasText: words.speechHint }).waitFor();
    assert.equal((await app.settledParams()).get('task'), 'speech');
    await app.waitForResults();
    assert.match(await app.rows().first().getByTestId('offer-unit-cost').textContent(), /\$/);
    await app.chooseTask('music');
    await app.page.getByTestId('task-hint').filter({ hasText: words.musicHint }).waitFor();
    await app.waitForResults();
    await app.page.getByTestId('model-facts').filter({ hasText: words.decodes }).waitFor();
    assert.equal(await app.page.locator('#secs').getAttribute('placeholder'), '30');
    // Pin one offer so both lengths are timed on the same GPU.
    await setField(app, 'gpu', 'a100');
    const seconds = async () => number((await detail(app, words.clip)).match(/[\d.,]+/)[0], lang);
    await setField(app, 'secs', 10);
    const ten = await seconds();
    await setField(app, 'secs', 20);
    const twenty = await seconds();
    assert.ok(twenty / ten > 1.8 && twenty / ten < 2.2, `${twenty} / ${ten}`);
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  });
}

test('the old audio link with a music generator asks for music; a bad clip length is noted and the page stays usable', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?task=audio&model=musicgen-large&secs=-3`);
  await app.waitForResults();
  assert.equal(await app.chosenTask(), 'music');
  const params = await app.settledParams();
  assert.equal(params.get('model'), 'musicgen-large');
  // Issue 39: the link keeps a value it could not apply, as given, until its field is edited.
  assert.equal(params.get('secs'), '-3', 'the bad value stays in the link');
  assert.match(await app.page.locator('body').textContent(), /secs/);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

// The three presets of issue 26, in both languages: each sets its whole
// link, its task's tab and ranks offers.
const PRESETS = [
  ['PRESET_VLM_CHAT', 'infer', 'model=qwen2-vl-7b&imgs=1&img_px=1024&in=256&out=256&conc=16'],
  ['PRESET_AUDIOBOOK', 'speech', 'task=speech&model=parler-tts-mini-v1&hours=10&secs=15&batch=8'],
  ['PRESET_MUSIC_CLIPS', 'music', 'task=music&model=musicgen-medium&n=100&secs=30&batch=4'],
];

for (const lang of ['en', 'es']) {
  test(`${lang}: the image, audiobook and music presets set their link and rank offers`, async () => {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?lang=${lang}`);
    await app.waitForResults();
    for (const [key, task, query] of PRESETS) {
      await app.page.getByTestId('preset-select').selectOption(key);
      await app.page.locator(`[role=tab][data-task="${task}"][aria-selected=true]`).waitFor();
      // The page's link is the CLI's canonical link for the preset's query.
      const canonical = execFileSync('cargo', ['run', '-q', '--', 'url', '--config', query], { encoding: 'utf8' }).trim();
      const params = await app.settledParams();
      params.delete('lang');
      assert.equal(`?${params}`, canonical, key);
      await app.waitForResults();
      assert.match(await app.rows().first().getByTestId('offer-unit-cost').textContent(), /\d/);
    }
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  });
}
