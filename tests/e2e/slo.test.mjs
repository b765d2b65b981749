// Serving to latency targets (issue 39): a link with a time to first token,
// an inter-token latency, a percentile and a peak rate ranks only the
// set-ups that meet them; each row says the latencies it gets and its
// replicas, its breakdown the launch command, and the cheapest hosted API
// stands beside renting; in English and Spanish, on a desktop and a phone; the form takes the targets and the link keeps them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

const TARGETS = 'model=llama-3.3-70b&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95';

/** The speed cell of every row, once the planner (fetched with the second module) has ranked them. */
async function plannedSpeeds(app, pattern) {
  await app.page.waitForFunction(
    (source) => {
      const cells = [...document.querySelectorAll('[data-testid=offer-speed]')];
      return cells.length > 0 && cells.every((c) => new RegExp(source).test(c.textContent));
    },
    pattern.source,
    { timeout: 20000 },
  );
  return app.page.getByTestId('offer-speed').allTextContents();
}

for (const [lang, first, between, launch, copied, curveTarget, curveSummary, hosted] of [
  [
    'en',
    /first token (0\.\d\d) s · (\d+) ms between tokens \(p95\)/,
    'Time between tokens',
    'Launch',
    'Command copied',
    /^target: 20\.0 tokens\/s each \(50 ms between tokens\)$/,
    /^Each replica's share of the peak, [\d.]+ requests\/s, takes about \d+ running at once/,
    /cheapest hosted API for Llama 3\.3 70B Instruct is [A-Z][\w .&-]*: \$[\d.]+ per 1M input tokens[\s\S]*Your traffic \(86,400 requests a day\) costs \$[\d,.]+ a month there, against \$[\d,.]+ a month renting the first row[\s\S]*requests a day/,
  ],
  [
    'es',
    /primer token (0,\d\d) s · (\d+) ms entre tokens \(p95\)/,
    'Tiempo entre tokens',
    'Arranque',
    'Comando copiado',
    /^objetivo: 20,0 tokens\/s cada una \(50 ms entre tokens\)$/,
    /^La parte del pico de cada réplica, [\d,]+ peticiones\/s, requiere unas \d+ en curso a la vez/,
    /API alojada más barata para Llama 3\.3 70B Instruct es [A-Z][\w .&-]*: [\d,]+\u00a0US\$ por 1M de tokens de entrada[\s\S]*Tu tráfico \(86\.400 peticiones al día\) cuesta allí [\d.,]+\u00a0US\$ al mes/,
  ],
]) {
  for (const width of [1440, 390]) {
    test(`a link with latency targets ranks set-ups that meet them, with their launch (${lang}, ${width} px)`, async () => {
      const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${TARGETS}&lang=${lang}`, {
        viewport: { width, height: 900 },
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await app.waitForResults();
      const speeds = await plannedSpeeds(app, first);
      for (const speed of speeds) {
        const [, ttft, itl] = speed.match(first);
        assert.ok(Number(ttft.replace(',', '.')) <= 1, speed);
        assert.ok(Number(itl) <= 50, speed);
      }
      // The first row's speed cell shows on a phone's card too.
      assert.ok(await app.page.getByTestId('offer-speed').first().isVisible());
      // Its breakdown: the latencies and the command that starts it.
      await app.page.getByTestId('expand-row').first().click();
      const details = await app.page.getByTestId('row-details').textContent();
      assert.ok(details.includes(between), details);
      assert.ok(details.includes(launch) && details.includes('vllm serve meta-llama/Llama-3.3-70B-Instruct'), details);
      // The throughput–interactivity curve, with the 50 ms target (20 tokens/s each) drawn on it.
      const curve = app.page.getByTestId('curve');
      assert.ok(await curve.isVisible());
      assert.ok((await curve.getByTestId('curve-point').count()) >= 2);
      assert.match(await curve.getByTestId('curve-target').locator('title').textContent(), curveTarget);
      assert.match(await curve.locator('figcaption').textContent(), curveSummary);
      // The command, copied as the breakdown shows it.
      await app.page.getByTestId('copy-launch').click();
      await app.page.getByTestId('launch-copy-status').getByText(copied).waitFor();
      const command = await app.page.evaluate(() => navigator.clipboard.readText());
      assert.match(command, /^vllm serve meta-llama\/Llama-3\.3-70B-Instruct .*--max-num-seqs \d+/);
      assert.ok(details.includes(command), `${command} in ${details}`);
      // Beside renting: the cheapest hosted API at the same traffic, and where renting wins.
      const api = app.page.getByTestId('hosted-api');
      await api.waitFor({ timeout: 20000 });
      assert.match(await api.textContent(), hosted);
      assert.ok(await api.isVisible());
      await app.page.context().close();
    });
  }
}

/** How many offers the page's snapshot holds. */
const offerCount = (app) => app.page.evaluate(async () => (await (await fetch('data/offers.json')).json()).offers.length);

test('targets typed into the form rank to them, and the link keeps them', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&in=1000&out=300`);
  await app.waitForResults();
  // What the status line said while the offers were planned (issue 39: a progress indication).
  await app.page.evaluate(() => {
    window.planningSaid = [];
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid=planning]');
      if (line && line.textContent) window.planningSaid.push(line.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  for (const [key, value] of [['rps', '5'], ['ttft', '1'], ['itl', '0.05']]) {
    await app.page.locator(`#${key}`).fill(value);
    await app.page.locator(`#${key}`).press('Enter');
  }
  await plannedSpeeds(app, /first token .* \(p95\)/);
  await app.page.waitForFunction(() => document.querySelector('[data-testid=planning]').textContent === '');
  const said = await app.page.evaluate(() => window.planningSaid);
  assert.ok(said.includes('Planning every offer to your latency targets…'), JSON.stringify(said));
  // The offers were planned in steps, the page free between them, and the
  // status said how far it was.
  assert.ok(said.some((s) => /^Planning every offer to your latency targets… [\d,]+ of [\d,]+ offers$/.test(s)), JSON.stringify(said));
  const steps = await app.page.evaluate(() => performance.getEntriesByName('whichgpu:plan-step').length);
  // (Each target typed plans again: at least one whole ranking's steps.)
  assert.ok(steps >= Math.ceil((await offerCount(app)) / 125), `${steps} steps`);
  const params = await app.settledParams();
  assert.equal(params.get('rps'), '5');
  assert.equal(params.get('ttft'), '1');
  assert.equal(params.get('itl'), '0.05');
  // The link reproduces the same first row.
  const first = await app.firstRowText();
  const again = await WhichGpuPage.open(env.browser, app.page.url());
  await again.waitForResults();
  await plannedSpeeds(again, /first token .* \(p95\)/);
  assert.equal(await again.firstRowText(), first);
  // And the same hosted API beside it.
  for (const page of [app, again]) await page.page.getByTestId('hosted-api').waitFor({ timeout: 20000 });
  assert.equal(await again.page.getByTestId('hosted-api').textContent(), await app.page.getByTestId('hosted-api').textContent());
  await app.page.context().close();
  await again.page.context().close();
});

test('targets no offer meets leave every offer out, each saying why, and name the closest set-up', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&rps=1&itl=0.001`);
  // No row: the offers left out say what each gets even alone.
  const excluded = app.page.getByTestId('excluded');
  await app.page.waitForFunction(() => document.querySelectorAll('[data-testid=offer-row]').length === 0, null, {
    timeout: 20000,
  });
  await excluded.locator('summary').click();
  const reasons = await excluded.textContent();
  assert.match(reasons, /inter-token latency [\d.]+ ms > 1\.0 ms even with one request at a time on 1× /);
  // The advice names the set-up that comes closest and targets it meets.
  const advice = await app.page.getByTestId('advice').textContent();
  assert.match(advice, /No offer meets these targets\. The closest is \d+× .*\(ttft=[\d.]+, itl=[\d.]+\)/);
  await app.page.context().close();
});

test('hosted APIs stand beside serving only, and prices that do not download say so', async () => {
  // Training: nothing to compare, and nothing downloaded for it.
  const training = await WhichGpuPage.open(env.browser, `${env.server.url}?task=finetune&model=llama-3.1-8b`);
  const asked = [];
  training.page.on('request', (request) => asked.push(request.url()));
  await training.waitForResults();
  await training.page.getByTestId('snapshot-date').waitFor();
  assert.equal(await training.page.getByTestId('hosted-api').count(), 0);
  assert.deepEqual(asked.filter((url) => url.includes('hosted.json')), []);
  await training.page.context().close();
  // A serving link whose prices cannot be fetched: the rows stay, the section says why.
  const context = await env.browser.newContext();
  await context.route(/data\/hosted\.json/, (route) => route.fulfill({ status: 503, body: 'down' }));
  const page = await context.newPage();
  await page.goto(`${env.server.url}?model=llama-3.1-8b`);
  await page.getByTestId('offer-row').first().waitFor();
  const failed = page.getByTestId('hosted-api-failed');
  await failed.waitFor({ timeout: 20000 });
  assert.match(await failed.textContent(), /hosted APIs' prices could not be downloaded \(.*503/);
  await context.close();
});

test('requests a day plan to their busiest hour, twice the mean unless the form says otherwise, and a prefix cache hit and a length spread are said', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&in=1000&out=300&rpd=200000&ttft=1&itl=0.05`);
  await app.waitForResults();
  await plannedSpeeds(app, /first token .* \(p95\)/);
  const traffic = async () => {
    await app.page.getByTestId('expand-row').first().click();
    const details = app.page.getByTestId('row-details');
    const text = await details.textContent();
    await app.page.getByTestId('expand-row').first().click();
    await details.waitFor({ state: 'detached' });
    return text.match(/Traffic([^A-Z]*)/)[1];
  };
  assert.equal(await traffic(), '4.63 requests/s at the busiest hour: 200,000 a day over 24 h up, the busiest hour 2.0× the mean (peakx)');
  await app.page.locator('#peakx').fill('1');
  await app.page.locator('#peakx').press('Enter');
  await app.page.waitForFunction(() => new URLSearchParams(location.search).get('peakx') === '1');
  await plannedSpeeds(app, /first token .* \(p95\)/);
  assert.equal(await traffic(), '2.31 requests/s at the busiest hour: 200,000 a day over 24 h up, the busiest hour 1.0× the mean (peakx)');
  // A prompt the prefix cache mostly holds: said beside the traffic, and the link keeps it.
  await app.page.locator('#hit').fill('50');
  await app.page.locator('#hit').press('Enter');
  await app.page.waitForFunction(() => new URLSearchParams(location.search).get('hit') === '50');
  await plannedSpeeds(app, /first token .* \(p95\)/);
  assert.match(await traffic(), /; 50% of each prompt from the prefix cache \(hit\)$/);
  // Lengths that vary between requests, likewise.
  await app.page.locator('#spread').fill('100');
  await app.page.locator('#spread').press('Enter');
  await app.page.waitForFunction(() => new URLSearchParams(location.search).get('spread') === '100');
  await plannedSpeeds(app, /first token .* \(p95\)/);
  assert.match(await traffic(), /; 50% of each prompt from the prefix cache \(hit\); lengths vary by 100% of their mean \(spread\)$/);
  await app.page.context().close();
});

test('a latency preset sets its targets and says its source; an edit makes them your own', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&in=1000&out=300&rps=2&lang=es`);
  await app.waitForResults();
  const preset = app.page.getByTestId('slo-preset');
  assert.equal(await preset.inputValue(), 'none');
  await preset.selectOption('chat');
  assert.equal(await app.page.locator('#ttft').inputValue(), '0.45');
  assert.equal(await app.page.locator('#itl').inputValue(), '0.04');
  assert.equal(await app.page.locator('#pct').inputValue(), '99');
  assert.match(await app.page.getByTestId('slo-preset-detail').textContent(), /MLPerf Inference.*0,45 s.*99 %/);
  await plannedSpeeds(app, /primer token .* \(p99\)/);
  const params = await app.settledParams();
  assert.deepEqual([params.get('ttft'), params.get('itl'), params.get('pct'), params.get('slo')], ['0.45', '0.04', '99', null]);
  // One's own value: the picker says so.
  await app.page.locator('#ttft').fill('0.3');
  await app.page.locator('#ttft').press('Enter');
  await app.page.waitForFunction(() => document.querySelector('[data-testid=slo-preset]').value === 'custom');
  assert.equal(await preset.locator('option:checked').textContent(), 'Los tuyos');
  // A link may name a preset; it is written as its targets.
  const linked = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&rps=2&slo=long`);
  await linked.waitForResults();
  assert.equal(await linked.page.getByTestId('slo-preset').inputValue(), 'long');
  const written = await linked.settledParams();
  assert.deepEqual([written.get('ttft'), written.get('itl'), written.get('pct'), written.get('slo')], ['6', '0.175', '99', null]);
  assert.deepEqual([...app.consoleErrors, ...linked.consoleErrors], []);
  await app.page.context().close();
  await linked.page.context().close();
});

test('a page ranks its link once, and a link with targets once more when the planner is in', async () => {
  const ranks = (app) => app.page.evaluate(() => performance.getEntriesByName('whichgpu:rank').length);
  const plain = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b`);
  await plain.waitForResults();
  await plain.page.getByTestId('hosted-api').waitFor({ timeout: 20000 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(await ranks(plain), 1);
  const planned = await WhichGpuPage.open(env.browser, `${env.server.url}?${TARGETS}`);
  await planned.waitForResults();
  await plannedSpeeds(planned, /first token .* \(p95\)/);
  await new Promise((resolve) => setTimeout(resolve, 500));
  // Ranked once at once, then once more in steps of 125 offers (src/ui/planning.rs).
  assert.equal(await ranks(planned), 1);
  const steps = await planned.page.evaluate(() => performance.getEntriesByName('whichgpu:plan-step').length);
  assert.equal(steps, Math.ceil((await offerCount(planned)) / 125));
  await plain.page.context().close();
  await planned.page.context().close();
});

test('a link with a zero rate and a negative target says why, and the form keeps what it said until edited', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-8b&rps=0&ttft=-1&itl=0.05&lang=es`);
  await app.waitForResults();
  assert.match(await app.page.getByTestId('url-notes').textContent(), /rps: 0 está fuera de rango[\s\S]*ttft: -1 está fuera de rango/);
  // The fields hold the link's values, with why beside each; the targets applied are planned.
  assert.equal(await app.page.locator('#rps').inputValue(), '0');
  assert.equal(await app.page.locator('#ttft').inputValue(), '-1');
  assert.equal(await app.page.locator('#ttft').getAttribute('aria-invalid'), 'true');
  assert.match(await app.page.locator('#ttft-error').textContent(), /-1 está fuera de rango/);
  await plannedSpeeds(app, /entre tokens \(p95\)/);
  // So does the address bar: a shared link says the same again.
  const params = await app.settledParams();
  assert.deepEqual([params.get('rps'), params.get('ttft'), params.get('itl')], ['0', '-1', '0.05']);
  const shared = await WhichGpuPage.open(env.browser, app.page.url());
  await shared.waitForResults();
  assert.equal(await shared.page.getByTestId('url-notes').textContent(), await app.page.getByTestId('url-notes').textContent());
  assert.equal(await shared.page.locator('#ttft').inputValue(), '-1');
  await shared.page.context().close();
  // An edit takes over, and a language switch does not bring the link's value back.
  await app.page.locator('#ttft').fill('2');
  await app.page.locator('#ttft').press('Enter');
  await app.page.waitForFunction(() => new URLSearchParams(location.search).get('ttft') === '2');
  assert.equal(await app.page.locator('#ttft-error').textContent(), '');
  assert.deepEqual((await app.settledParams()).getAll('rps'), ['0'], 'the field not edited keeps its value in the link');
  await app.page.getByTestId('language-select').selectOption('en');
  await app.page.locator('html[lang=en]').waitFor();
  assert.equal(await app.page.locator('#ttft').inputValue(), '2');
  assert.equal(await app.page.locator('#rps').inputValue(), '0');
  // A model the link could not apply stays in it too, until another is picked.
  const unknown = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-7b&rps=2`);
  await unknown.waitForResults();
  assert.equal((await unknown.settledParams()).get('model'), 'llama-3.1-7b');
  await unknown.modelPicker().fill('Llama 3.1 70B');
  await unknown.page.waitForFunction(() => new URLSearchParams(location.search).get('model') === 'llama-3.1-70b');
  await unknown.page.context().close();
  await app.page.context().close();
});

test('allowing FP8 and INT4 plans the offers in smaller formats where they need fewer instances, says which, and the link keeps it', async () => {
  const query = 'model=llama-3.3-70b&wq=bf16&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95';
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${query}`);
  await app.waitForResults();
  await plannedSpeeds(app, /first token .* \(p95\)/);
  await app.page.waitForFunction(() => document.querySelector('[data-testid=planning]').textContent === '');
  const formats = async () => {
    await app.page.getByTestId('expand-row').first().click();
    const said = await app.page.getByTestId('row-details').locator('dt', { hasText: /^Formats$/ }).locator('+ dd').textContent();
    await app.page.getByTestId('expand-row').first().click();
    return said;
  };
  const costs = () => app.page.getByTestId('offer-row').first().textContent();
  assert.equal(await formats(), 'weights BF16 (16-bit), BF16 KV cache');
  const kept = await costs();
  assert.equal(await app.page.getByTestId('quantize-select').inputValue(), 'keep');
  await app.page.getByTestId('quantize-select').selectOption('allow');
  await app.page.waitForFunction((was) => document.querySelector('[data-testid=offer-row]').textContent !== was, kept);
  await app.page.waitForFunction(() => document.querySelector('[data-testid=planning]').textContent === '');
  assert.match(await formats(), /^weights (FP8 \(8-bit\)|AWQ 4-bit), FP8 KV cache$/);
  assert.equal((await app.settledParams()).get('quant'), 'allow');
  await app.page.context().close();
});
