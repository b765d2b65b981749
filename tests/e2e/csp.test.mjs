// Content-Security-Policy (issue 10): dist/index.html carries a strict
// policy (scripts from the page's origin only, 'wasm-unsafe-eval' for the
// WebAssembly module, no inline scripts or styles, no eval), and the whole
// page runs under it in Chromium without one violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

/** Records every CSP violation in every frame, from before the page's first script. */
async function openWatched(url, options = {}) {
  const context = await env.browser.newContext(options);
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`));
  });
  const app = new WhichGpuPage(await context.newPage());
  await app.page.goto(url);
  return app;
}

const violations = (app) => app.page.evaluate(() => window.__violations);

test('the built page declares a strict policy and has no inline script', () => {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.ok(policy, 'a CSP meta tag');
  const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives['default-src'], ["'self'"]);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.ok(!policy.includes('unsafe-inline') && !policy.includes("'unsafe-eval'"), policy);
  // The policy comes before any script, and every script is a file.
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<script'), 'the policy precedes the scripts');
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)];
  assert.deepEqual(inline.map((m) => m[0]), []);
});

test('the page runs under its policy: results, breakdown, chart, exports, language, embed snippet, no violation', async () => {
  const app = await openWatched(`${env.server.url}?model=llama-3.1-70b&wq=awq&conc=16`, { acceptDownloads: true });
  await app.waitForResults();
  // The memory bar colours its parts by class, not by inline style.
  const swatch = app.page.locator('.memory-bar .swatch').first();
  assert.notEqual(await swatch.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgba(0, 0, 0, 0)');
  await app.page.getByTestId('expand-row').first().click();
  await app.page.getByTestId('row-details').first().waitFor();
  await app.page.getByTestId('chart-point').last().hover({ force: true });
  for (const button of ['export-csv', 'export-json']) {
    const download = app.page.waitForEvent('download');
    await app.page.getByTestId(button).click();
    assert.ok((await download).suggestedFilename());
  }
  await app.page.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await app.page.getByText('Insertar', { exact: true }).click();
  await app.page.locator('#conc').fill('24');
  await app.settledParams();
  await app.rows().first().waitFor();
  assert.deepEqual(await violations(app), []);
  assert.deepEqual(app.consoleErrors, []);
  await app.page.context().close();
});

test('the policy is enforced: a script slipped into the page does not run', async () => {
  const app = await openWatched(env.server.url);
  await app.waitForResults();
  await app.page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.head.append(script);
    document.body.insertAdjacentHTML('beforeend', '<img src="x" onerror="window.__ran = true">');
  });
  await app.page.waitForFunction(() => window.__violations.length >= 2);
  assert.equal(await app.page.evaluate(() => window.__ran), undefined);
  const seen = await violations(app);
  assert.ok(seen.some((v) => v.startsWith('script-src-elem inline')), seen.join('\n'));
  assert.ok(seen.some((v) => v.startsWith('script-src-attr inline')), seen.join('\n'));
  await app.page.context().close();
});
