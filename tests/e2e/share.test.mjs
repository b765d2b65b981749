// Share links (issue 8): "Copy link" puts the link of what is on screen on
// the clipboard and says so; where the browser has no clipboard for the
// page (plain http on a real host name), it shows the link to copy by hand.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, launchBrowser, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

test('Copy link copies the link of the workload on screen and confirms it', async () => {
  const app = await WhichGpuPage.open(env.browser, `${env.server.url}?model=llama-3.1-70b&conc=8`, {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await app.waitForResults();
  await app.page.locator('#conc').fill('16');
  // Straight after the edit, before the address bar has caught up.
  await app.page.getByTestId('copy-link').click();
  await app.page.getByTestId('copy-status').getByText('Link copied').waitFor();
  const copied = await app.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `${env.server.url}?v=1&model=llama-3.1-70b&conc=16`);
  // The copied link opens the same workload.
  const reopened = await WhichGpuPage.open(env.browser, copied);
  await reopened.waitForResults();
  assert.equal(await reopened.page.locator('#conc').inputValue(), '16');
  assert.equal(await reopened.caption(), await app.caption());
  // A further edit clears the confirmation.
  await app.page.locator('#conc').fill('17');
  await app.page.getByTestId('copy-status').getByText('Link copied').waitFor({ state: 'detached' });
  assert.deepEqual([...app.consoleErrors, ...reopened.consoleErrors], []);
  await app.page.context().close();
  await reopened.page.context().close();
});

test('without a clipboard (plain http on a host name) the link is offered to copy by hand', async () => {
  // whichgpu.test resolves to the local server; http on a real name is not a secure context.
  const browser = await launchBrowser(['--host-resolver-rules=MAP whichgpu.test 127.0.0.1']);
  after(() => browser.close());
  const url = env.server.url.replace('127.0.0.1', 'whichgpu.test');
  const app = await WhichGpuPage.open(browser, `${url}?task=image&n=500&lang=es`);
  await app.waitForResults();
  await app.page.getByTestId('copy-link').click();
  const field = app.page.getByTestId('link-by-hand');
  await field.waitFor();
  assert.equal(await field.inputValue(), `${url}?v=1&task=image&n=500&lang=es`);
  assert.match(await app.page.getByTestId('copy-status').textContent(), /^Copia este enlace:/);
  // Focusing the field selects the whole link.
  await field.focus();
  assert.equal(await field.evaluate((input) => input.selectionEnd - input.selectionStart), (await field.inputValue()).length);
  assert.deepEqual(app.consoleErrors, []);
});
