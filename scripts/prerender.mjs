// The default page's first result, drawn at build time (issue 38): the built
// site is opened in headless Chromium at a desktop's width, and the page's
// header and main are copied as they stand in the task that first draws a
// ranked row, before the browser paints it, once in English and once as a
// browser set to Spanish opens it. scripts/post-build.mjs writes the English
// copy into index.html, where it shows from the first paint on a plain visit
// (src/ui/prefetch.js chooses), and the Spanish one into a file the prefetch
// script fetches for a page that opens in Spanish; the page removes the copy
// as it draws its own first result, the same rows in the same places
// (src/ui/document.rs, `remove_prerender`). A phone's page differs only in
// its folded form, which style/main.css folds in the copy.
//
// A copy is a picture of the page, not the page: `inert` (no focus, no
// clicks, out of the accessibility tree), without the ids, test ids and
// tooltips of the live page, the choices its form's pickers do not show
// (their width is the form's, not their longest choice's) and the model
// list (a <datalist> is never drawn). Form controls keep the values the page
// gave them.
//
// Runs where the e2e tests run (/usr/bin/chromium and tests/e2e's
// playwright-core, from `scripts/setup.sh --test`); elsewhere it returns
// nothing and the page opens as before, its loading note first. The e2e
// tests fail on a dist/ without the copy (tests/e2e/prerender.test.mjs).
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };

/** The viewport the copy is drawn in: wider than a phone (src/ui/document.rs, `PHONE_MAX_WIDTH_PX`). */
const VIEW = { width: 1280, height: 900 };

function playwright() {
  try {
    return createRequire(path.join(here, '../tests/e2e/package.json'))('playwright-core');
  } catch {
    return undefined;
  }
}

/**
 * The default page's header and main as drawn with its first result, from
 * the site in `dir`, in each of the page's languages: `{ html, es }` (HTML
 * strings: the page in English and in Spanish, as a browser set to Spanish
 * opens it); or `{ skipped }`, with the reason, where no browser can draw them.
 */
export async function prerender(dir) {
  const driver = playwright();
  if (!driver || !existsSync(CHROMIUM)) {
    return { skipped: `no ${driver ? CHROMIUM : "tests/e2e's playwright-core"} (scripts/setup.sh --test installs both)` };
  }
  const server = http.createServer((req, res) => {
    const relative = decodeURIComponent(new URL(req.url, 'http://x').pathname).slice(1) || 'index.html';
    const file = path.join(dir, relative);
    if (!file.startsWith(path.resolve(dir)) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await driver.chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const draw = async (locale) => {
    const context = await browser.newContext({ viewport: VIEW, locale, serviceWorkers: 'block' });
    const page = await context.newPage();
    const failures = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.addInitScript(copyAtFirstRow);
    await page.goto(url);
    const drawn = await page.waitForFunction(() => window.whichgpuFirstResult, null, { timeout: 30000 }).then((h) => h.jsonValue());
    if (failures.length) throw new Error(`the page failed while drawn for its copy (${locale}): ${failures.join('; ')}`);
    await context.close();
    return drawn;
  };
  try {
    return { html: await draw('en-US'), es: await draw('es-ES') };
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

// In the page, before its scripts: copies the header and main in the task
// that first puts a ranked row into the page (a mutation observer's callback
// runs before that task's paint), into `window.whichgpuFirstResult`.
function copyAtFirstRow() {
  // `for` stays: style/main.css places the model's label by it, and the
  // copy is gone before the page's own fields show.
  const DROPPED = ['id', 'list', 'title', 'data-testid', 'aria-controls', 'aria-describedby', 'aria-labelledby', 'aria-live'];
  const copy = () => {
    const parts = [...document.body.children].filter((e) => e.matches('header, main'));
    return parts.map((part) => {
      const clone = part.cloneNode(true);
      // What the page set as properties, written as attributes.
      const live = part.querySelectorAll('input, select, textarea, details');
      clone.querySelectorAll('input, select, textarea, details').forEach((e, i) => {
        const from = live[i];
        if (e.tagName === 'INPUT') {
          if (from.type === 'checkbox' || from.type === 'radio') e.toggleAttribute('checked', from.checked);
          else e.setAttribute('value', from.value);
        } else if (e.tagName === 'SELECT') {
          [...e.options].forEach((o, k) => o.toggleAttribute('selected', from.options[k].selected));
          // A form's picker is as wide as its column (style/main.css): only
          // the choice it shows is kept.
          if (from.closest('.workload-form')) {
            [...e.options].filter((o) => !o.selected).forEach((o) => o.remove());
            e.querySelectorAll('optgroup:empty').forEach((g) => g.remove());
          }
        } else if (e.tagName === 'TEXTAREA') {
          e.textContent = from.value;
        } else {
          e.toggleAttribute('open', from.open);
        }
      });
      clone.querySelectorAll('datalist').forEach((e) => e.remove());
      // Leptos's markers of where its views go, which a copy has no use for.
      const comments = document.createTreeWalker(clone, NodeFilter.SHOW_COMMENT);
      const markers = [];
      while (comments.nextNode()) markers.push(comments.currentNode);
      markers.forEach((c) => c.remove());
      for (const e of [clone, ...clone.querySelectorAll('*')]) {
        for (const name of DROPPED) e.removeAttribute(name);
      }
      return clone.outerHTML;
    }).join('');
  };
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-testid=offer-row]')) {
      observer.disconnect();
      window.whichgpuFirstResult = copy();
    }
  }).observe(document, { childList: true, subtree: true });
}
