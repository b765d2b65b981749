// Issue 40: Spanish select labels were cut ("Automático, según la G").
// Every picker of the form shows its chosen option's whole text, on every
// task tab, in both languages, on a wide screen and a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowserAndServer, WhichGpuPage } from './harness.mjs';

const env = sharedBrowserAndServer();

/** The pickers whose chosen text does not fit their box: [id, text, text px, room px]. */
async function cutSelects(page) {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d');
    const cut = [];
    for (const select of document.querySelectorAll('form select, .workload-form select, fieldset select')) {
      if (!select.offsetParent) continue; // hidden
      const style = getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.options[select.selectedIndex]?.text ?? '';
      const width = canvas.measureText(text).width;
      // Room inside the box: its width less padding, border and the arrow (about 20 px).
      const room = select.getBoundingClientRect().width
        - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth) - 20;
      if (width > room + 0.5) cut.push([select.id || select.dataset.testid, text, Math.round(width), Math.round(room)]);
    }
    return cut;
  });
}

test('every picker shows its whole chosen option on every tab, in both languages, wide and on a phone', async () => {
  const found = [];
  for (const width of [1440, 390]) {
    for (const lang of ['en', 'es']) {
      for (const task of ['infer', 'finetune', 'pretrain', 'image', 'video', 'audio', 'speech', 'music']) {
        const app = await WhichGpuPage.open(env.browser, `${env.server.url}?task=${task}&lang=${lang}`, {
          viewport: { width, height: 900 },
        });
        await app.waitForResults();
        // The phone folds the form: open it and its rental options.
        for (const fold of await app.page.locator('details.workload-fold:not([open]) > summary, fieldset details:not([open]) > summary').all()) {
          await fold.click();
        }
        for (const cut of await cutSelects(app.page)) found.push(`${width}px ${lang} ${task}: ${JSON.stringify(cut)}`);
        await app.page.context().close();
      }
    }
  }
  assert.deepEqual(found, []);
});
