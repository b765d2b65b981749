// Accessibility (issue 7): axe-core, injected into the page in Chromium,
// finds no serious or critical violations on each task's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const CASES = [
  ['', {}],
  ['?task=finetune', {}],
  ['?task=image&n=1000', {}],
  ['?task=audio', {}],
  // Dark theme (contrast), Spanish, and a phone: the other looks of the page.
  ['?lang=es&task=video', { colorScheme: 'dark' }],
  ['?model=llama-3.1-70b&wq=awq&conc=16', { colorScheme: 'dark', viewport: { width: 360, height: 800 } }],
];

for (const [query, options] of CASES) {
  const look = Object.keys(options).length ? ` (${JSON.stringify(options)})` : '';
  test(`no serious or critical axe violations on ${query || 'the default page'}${look}`, async () => {
    // bypassCSP: axe is injected as an inline script, which the page's policy refuses.
    const app = await WhichGpuPage.open(env.browser, env.server.url + query, { ...options, bypassCSP: true });
    await app.waitForResults();
    // The chart, an open breakdown and the pager count too.
    await app.page.getByTestId('cost-chart').waitFor();
    await app.page.getByTestId('expand-row').first().click();
    await app.page.addScriptTag({ path: path.resolve(axePath) });
    const violations = await app.page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert.deepEqual(violations, []);
    await app.page.context().close();
  });
}
