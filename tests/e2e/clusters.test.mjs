// Clusters (issue 24): a pretraining link on 256 GPUs ranks multi-node rows
// that name their nodes, GPUs and fabric; a deadline (`days`, the form's
// "Finish within (days)") changes how many nodes each offer needs; and
// what cannot be joined says why, in English and Spanish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();
const PRETRAIN = 'task=pretrain&model=llama-3.1-70b&gpus=256&zero=3&tokens=1e12';

/** The instance cell of the first row: "32 × p5.48xlarge" and its fabric. */
async function firstInstance(app) {
  const cell = app.rows().first().locator('td').nth(1);
  const fabric = await cell.locator('.fabric').textContent();
  const words = (await cell.textContent()).replace(fabric, '').trim();
  return { words, fabric, title: await cell.getAttribute('title') };
}

test('a pretraining link on 256 GPUs lists clusters with their nodes and fabric', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${PRETRAIN}`);
  await app.waitForResults();
  const first = await firstInstance(app);
  assert.match(first.words, /^\d+ × \S+$/);
  assert.match(first.fabric, /^(InfiniBand|EFA|RoCE|GPUDirect-TCPX|Ethernet)( [\d,]+ Gbit\/s|, speed not stated)$/);
  assert.ok(first.title.length > 0, 'the source describes the fabric in the tooltip');
  assert.match(await app.rows().first().textContent(), /25[6-9]× |2[6-9]\d× |[3-9]\d\d× /);
  // Every row is a cluster badge-wise, and the job takes days, not years.
  const badges = await app.rows().first().locator('.badge').allTextContents();
  assert.ok(badges.includes('multi-node cluster'), badges.join(', '));
  const job = await app.rows().first().locator('td').nth(7).textContent();
  assert.match(job, /\d+(\.\d+)? (d|h)/);
  assert.ok(!/year|años/.test(job), job);
  // AWS p5: 32 nodes of 8, EFA at 3,200 Gbit/s, as cluster_fabrics.csv says.
  await app.page.goto(`${env.server.url}?${PRETRAIN}&provider=aws&gpu=h100_sxm`);
  await app.waitForResults();
  const p5 = await firstInstance(app);
  assert.equal(p5.words, '32 × p5.48xlarge');
  assert.equal(p5.fabric, 'EFA 3,200 Gbit/s');
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('the deadline key and field change the cluster size, and a deadline nothing meets is said', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${PRETRAIN}&provider=aws&gpu=h100_sxm`);
  await app.waitForResults();
  assert.equal((await firstInstance(app)).words, '32 × p5.48xlarge');
  // Thirty days: more nodes, set from the form, kept in the link.
  await app.page.locator('#days').fill('30');
  await app.page.waitForFunction(() => /^(3[3-9]|[4-6]\d) × p5\.48xlarge/.test(
    document.querySelector('[data-testid=offer-row] td:nth-child(2)')?.textContent ?? ''));
  assert.equal((await app.settledParams()).get('days'), '30');
  const nodes = Number((await firstInstance(app)).words.split(' ')[0]);
  assert.ok(nodes > 32 && nodes <= 64, `${nodes} nodes`);
  // Ten days: no cluster in the data is big enough, and the caption says so.
  await app.page.locator('#days').fill('10');
  await app.page.getByTestId('offers-caption').filter({ hasText: /No offer finishes this job within 10\.0 days/ }).waitFor();
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('offers that cannot form clusters say why, in English and Spanish', async () => {
  for (const [lang, expected] of [
    ['en', /needs 256 GPUs, more than one instance has, and Lambda \(Lambda Cloud\) does not join these instances into multi-node clusters/],
    ['es', /necesita 256 GPU, más de las que tiene una instancia, y Lambda \(Lambda Cloud\) no une estas instancias en clústeres de varios nodos/],
  ]) {
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${PRETRAIN}&provider=lambda&lang=${lang}`);
    await app.page.getByTestId('offers-caption').waitFor();
    // Nothing is listed, so the offers left out are shown open.
    const excluded = app.page.getByTestId('excluded');
    await excluded.locator('li').first().waitFor();
    assert.match(await excluded.textContent(), expected);
    assert.deepEqual(app.consoleErrors, []);
    await app.page.context().close();
  }
});

test('a pretraining run with no deadline or GPU count is sized to finish within 90 days, and says so (issue 40)', async () => {
  for (const [lang, said, none] of [
    ['en', /^No deadline or GPU count was given: each offer is sized to the fewest nodes that finish within 90 days\./, /No offer finishes this job within 90\.0 days: .* at least [\d,]+ of its GPUs/],
    ['es', /^No se indicó plazo ni número de GPU: cada oferta se dimensiona con los menos nodos que terminan en 90 días\./, /90,0 días/],
  ]) {
    // 8B on 1T tokens: every row finishes within the quarter, several on clusters.
    const app = await WhichGpuPage.open(env.browser, `${env.server.url}?task=pretrain&model=llama-3.1-8b&tokens=1000000000000&lang=${lang}`);
    await app.waitForResults();
    const advice = await app.page.getByTestId('advice').locator('li').allTextContents();
    assert.ok(advice.some((a) => said.test(a)), `${lang}: ${advice.join(' | ')}`);
    await app.page.context().close();
    // 70B on 15T tokens: none does, and the page says how many GPUs would.
    const big = await WhichGpuPage.open(env.browser, `${env.server.url}?task=pretrain&model=llama-3.1-70b&tokens=15000000000000&lang=${lang}`);
    await big.page.getByTestId('offers-caption').filter({ hasText: none }).waitFor();
    assert.deepEqual(big.consoleErrors, [], lang);
    await big.page.context().close();
  }
});
