// A panic never leaves a frozen page (issue 10): the Rust panic hook, and a
// trap of the WebAssembly module reaching the window, put up "Something went
// wrong" over the stopped page, with the page's own link (the workload
// survives), a reload of it, a reset, and "Copy link". Its links work
// without any more WebAssembly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WORKLOAD = 'model=llama-3.1-70b&conc=12';

/** Opens the workload, waits for results, and panics inside the module. */
async function crashed(query, options = {}) {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${query}`, options);
  await app.waitForResults();
  const thrown = await app.page.evaluate(() => {
    try {
      window.wasmBindings.crash_for_test();
      return null;
    } catch (error) {
      return String(error);
    }
  });
  // panic = "abort": the module traps after the hook has run.
  assert.match(thrown, /RuntimeError: unreachable/);
  return app;
}

test('a panic shows the error panel with the link of the workload, in the page language', async () => {
  const app = await crashed(`${WORKLOAD}&lang=es`);
  const panel = app.page.getByRole('alertdialog', { name: 'Algo ha fallado' });
  await panel.waitFor();
  const link = app.page.url();
  assert.match(link, /conc=12/);
  assert.equal(await panel.getByRole('textbox').inputValue(), link);
  assert.equal(await panel.getByRole('link', { name: 'Recargar este enlace' }).getAttribute('href'), link);
  assert.equal(await panel.getByRole('link', { name: 'Restablecer el formulario' }).getAttribute('href'), '/');
  // The focus moves into the panel, and the panic is in the console for a bug report.
  assert.equal(await app.page.evaluate(() => document.activeElement.textContent), 'Recargar este enlace');
  assert.ok(app.consoleErrors.some((e) => e.includes('crash_for_test: a deliberate panic')), app.consoleErrors.join('\n'));
  // A second error does not stack a second panel.
  await app.page.evaluate(() => { try { window.wasmBindings.crash_for_test(); } catch {} });
  assert.equal(await app.page.locator('#crash').count(), 1);
  await app.page.context().close();
});

test("the panel's reload brings the workload back, and reset starts from the defaults", async () => {
  const app = await crashed(WORKLOAD);
  await app.page.getByRole('link', { name: 'Reload this link' }).click();
  await app.waitForResults();
  assert.equal(await app.page.locator('#crash').count(), 0);
  assert.equal(await app.page.locator('#conc').inputValue(), '12');
  assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 70B');

  await app.page.evaluate(() => { try { window.wasmBindings.crash_for_test(); } catch {} });
  await app.page.getByRole('link', { name: 'Reset the form' }).click();
  await app.waitForResults();
  assert.equal(new URL(app.page.url()).search, '');
  assert.equal(await app.modelPicker().inputValue(), 'Llama 3.1 8B');
  await app.page.context().close();
});

test("the panel's Copy link copies the workload's link, and selects it for copying by hand", async () => {
  const app = await crashed(WORKLOAD, { permissions: ['clipboard-read', 'clipboard-write'] });
  const link = app.page.url();
  await app.page.locator('#crash').getByRole('button', { name: 'Copy link' }).click();
  assert.equal(await app.page.evaluate(() => navigator.clipboard.readText()), link);
  const selected = await app.page.evaluate(() => {
    const field = document.querySelector('#crash input');
    return field.value.slice(field.selectionStart, field.selectionEnd);
  });
  assert.equal(selected, link);
  await app.page.context().close();
});

test('a trap of the module that is not a panic shows the panel too; other script errors do not', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${WORKLOAD}`);
  await app.waitForResults();
  // An error of some other script on the page (an extension, the host) is not ours.
  await app.page.evaluate(() => window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('not ours') })));
  assert.equal(await app.page.locator('#crash').count(), 0);
  // A stack overflow or out-of-memory trap arrives as a WebAssembly.RuntimeError.
  await app.page.evaluate(() =>
    window.dispatchEvent(new ErrorEvent('error', { error: new WebAssembly.RuntimeError('memory access out of bounds') })));
  await app.page.getByRole('alertdialog', { name: 'Something went wrong' }).waitFor();
  await app.page.context().close();
});

test('the error panel has no serious or critical axe violations, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const app = await crashed(WORKLOAD, { colorScheme, bypassCSP: true });
    await app.page.locator('#crash').waitFor();
    await app.page.addScriptTag({ path: path.resolve(axePath) });
    const violations = await app.page.evaluate(async () => {
      const result = await window.axe.run(document.getElementById('crash'), { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
    });
    assert.deepEqual(violations, [], colorScheme);
    await app.page.context().close();
  }
});

test('an edit made just before a crash is in the panel\'s link and the address bar, which then stay put', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?${WORKLOAD}`);
  await app.waitForResults();
  await app.urlSettled();
  // The edit, the page's reaction to it, and the panic, within the 150 ms
  // before the address bar would have shown the edit.
  await app.page.evaluate(async () => {
    const field = document.getElementById('conc');
    field.value = '13';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      window.wasmBindings.crash_for_test();
    } catch {}
  });
  const panel = app.page.locator('#crash');
  await panel.waitFor();
  const quoted = await panel.getByRole('textbox').inputValue();
  assert.match(quoted, /[?&]conc=13(&|$)/);
  assert.equal(app.page.url(), quoted);
  // Nothing the stopped page had scheduled moves the address bar after.
  await app.page.waitForTimeout(400);
  assert.equal(app.page.url(), quoted);
  await app.page.context().close();
});
