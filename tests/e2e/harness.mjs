// Shared e2e harness: a static server for dist/ on loopback, Debian's
// Chromium driven by playwright-core, and a page object for whichgpu.
import { createHash } from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.resolve(here, '../../dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// GitHub Pages compresses these types (on the fly, when the browser
// accepts gzip) and lets browsers keep every file for ten minutes.
const COMPRESSED = new Set(['.html', '.js', '.wasm', '.css', '.json', '.md', '.svg']);
const PAGES_MAX_AGE = 600;

/**
 * Serves dist/ under `prefix` (e.g. '/' or '/whichgpu/') on 127.0.0.1 at a
 * free port. `routes` maps a path below the prefix to a handler
 * `(req, res) => void` that replaces the file, to inject faults.
 * `maxHeaderSize` raises Node's 16 KB limit on the request line and
 * headers, for links longer than most static hosts accept.
 * `likePages` answers as GitHub Pages does: gzip where the browser accepts
 * it, `Cache-Control: max-age=600` with an ETag and Last-Modified, and 304
 * to a matching If-None-Match; otherwise every answer is the plain file,
 * never cached.
 * `.requests` lists what the server was asked, in order: `{ url, file,
 * status, bytes }` (`file` is the file below dist/ that answers, `bytes`
 * the body as sent).
 */
export async function serveDist({ prefix = '/', routes = {}, maxHeaderSize, likePages = false } = {}) {
  const requests = [];
  const gzipped = new Map();
  const server = http.createServer({ maxHeaderSize }, async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not under ' + prefix);
      return;
    }
    const relative = url.pathname.slice(prefix.length) || 'index.html';
    const logged = { url: req.url, file: relative, status: 0, bytes: 0 };
    requests.push(logged);
    res.on('finish', () => { logged.status = res.statusCode; });
    if (routes[relative]) {
      routes[relative](req, res);
      return;
    }
    const file = path.join(DIST, relative);
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    let body, stat;
    try {
      [body, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    // Like GitHub Pages: any origin may read the files, which a page
    // embedded in a sandboxed iframe (an opaque origin) needs.
    const headers = {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'access-control-allow-origin': '*',
    };
    if (likePages) {
      const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
      Object.assign(headers, {
        'cache-control': `max-age=${PAGES_MAX_AGE}`,
        etag,
        'last-modified': stat.mtime.toUTCString(),
        vary: 'Accept-Encoding',
      });
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
      if (COMPRESSED.has(path.extname(file)) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        if (!gzipped.has(file)) gzipped.set(file, gzipSync(body, { level: 9 }));
        body = gzipped.get(file);
        headers['content-encoding'] = 'gzip';
      }
    }
    logged.bytes = body.length;
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    // Closes the browser's kept-alive connections too: the server is gone.
    close: () => new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    }),
  };
}

/** Launches /usr/bin/chromium headless, as root-safe as the machine needs. */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
}

/** The whichgpu page, with the console errors it logs. */
export class WhichGpuPage {
  constructor(page) {
    this.page = page;
    this.consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => this.consoleErrors.push(String(error)));
    page.on('response', (response) => {
      if (response.status() >= 400) this.consoleErrors.push(`${response.status()} ${response.url()}`);
    });
  }

  /** The chart's point for the offer ranked lowest (the points go by speed, not by rank). */
  async lowestRankedPoint() {
    // The chart is drawn after the first result, from the page's second module.
    await this.page.getByTestId('chart-point').first().waitFor();
    const rows = await this.page.getByTestId('chart-point').evaluateAll((points) => points.map((p) => Number(p.dataset.row)));
    return this.page.locator(`[data-testid=chart-point][data-row="${Math.max(...rows)}"]`);
  }

  /** Opens `url` in a fresh context (`options`: Playwright context options, e.g. `{ locale: 'es-ES' }`). */
  static async open(browser, url, options = {}) {
    const context = await browser.newContext(options);
    const wrapper = new WhichGpuPage(await context.newPage());
    await wrapper.page.goto(url);
    return wrapper;
  }

  /** The model's search box: `fill` it with a model's name or id to pick that model; it shows the name. */
  modelPicker() { return this.page.locator('#model'); }
  /** Chooses a task by clicking its tab (`infer`, `finetune`, `pretrain`, `image`, `video`, `audio`). */
  chooseTask(task) { return this.page.locator(`[role=tab][data-task="${task}"]`).click(); }
  /** The chosen tab's task, as the link spells it. */
  chosenTask() { return this.page.locator('[role=tab][aria-selected=true]').getAttribute('data-task'); }
  precisionSelect() { return this.page.getByTestId('precision-select'); }
  rows() { return this.page.getByTestId('offer-row'); }
  caption() { return this.page.getByTestId('offers-caption').textContent(); }
  memory() { return this.page.getByTestId('memory-summary').textContent(); }
  snapshotDate() { return this.page.getByTestId('snapshot-date').textContent(); }

  async waitForResults() {
    await this.rows().first().waitFor({ state: 'visible', timeout: 15000 });
  }

  async firstRowText() {
    return (await this.rows().first().textContent()).trim();
  }

  /**
   * Waits until the address bar shows the latest edit: the app writes it
   * 150 ms after the last change (src/ui/app.rs), marking `whichgpu:url-scheduled`
   * when it plans a write and measuring `whichgpu:url` when it writes.
   */
  async urlSettled() {
    await this.page.waitForFunction(() => {
      const scheduled = performance.getEntriesByName('whichgpu:url-scheduled').at(-1)?.startTime ?? -1;
      const written = performance.getEntriesByName('whichgpu:url').at(-1)?.startTime ?? -2;
      return written > scheduled;
    });
  }

  /** The query string of the address bar once it shows the latest edit. */
  async settledParams() {
    await this.urlSettled();
    return this.params();
  }

  /** The query string of the address bar, as URLSearchParams. */
  params() {
    return new URL(this.page.url()).searchParams;
  }
}

/**
 * For a test file: one browser and one server of dist/ shared by its tests,
 * started before them and closed after. Read `.browser` and `.server` inside
 * the tests.
 */
export function sharedBrowserAndServer() {
  const shared = { browser: null, server: null };
  before(async () => {
    shared.browser = await launchBrowser();
    shared.server = await serveDist();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}

/** The User Timing measures of a cold load (src/ui/timing.rs), by name after `whichgpu:`. */
export const LOAD_MEASURES = {
  'parse-catalog': 'catalog parse (before the page is built)',
  mount: 'building the page (mount)',
  'parse-offers': 'snapshot parse + validate',
  rank: 'first ranking',
};

/**
 * For the benchmarks, once `page` is navigating to whichgpu: `firstResult`,
 * the milliseconds from navigation start to the first full result on
 * screen, when the browser paints the offers table's caption (Element
 * Timing, the caption's `elementtiming` attribute), which shows in the same
 * frame as the memory bar, the advice and the first page of ranked rows: on
 * a plain visit the copy drawn at build time (scripts/prerender.mjs), a
 * link on a phone the copy drawn before the page is built, else the page's own; `pageResult`, the same for the page's own caption, from
 * when the page answers edits; and the duration of each of LOAD_MEASURES.
 */
export async function coldLoadTimings(page) {
  // Polled with plain evaluations: Playwright's locators would inject their
  // script into the page while it loads and slow it down.
  for (let waited = 0; !(await page.evaluate(() => !!document.querySelector('[data-testid=offer-row]'))); waited += 50) {
    if (waited > 15000) throw new Error('no result row after 15 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Element Timing entries are only delivered to observers (buffered). The
  // copy's caption has left the page by now: its entry names no element.
  const [firstResult, pageResult] = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const painted = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (entry.identifier === 'offers-caption') painted.push(entry);
          }
          const page = painted.find((entry) => entry.element?.isConnected);
          if (page) resolve([Math.min(...painted.map((entry) => entry.renderTime || entry.loadTime)), page.renderTime || page.loadTime]);
        }).observe({ type: 'element', buffered: true });
      }),
  );
  // A link's copy drawn on a phone before the page is built (src/ui/first_copy.rs)
  // marks the task after the frame that painted it: Chromium reports its
  // caption's paint only once that frame is presented, after the page has
  // removed it.
  const copied = await page.evaluate(() => performance.getEntriesByName('whichgpu:first-copy-painted')[0]?.startTime);
  const timings = { firstResult: Math.round(Math.min(firstResult, copied ?? Infinity)), pageResult: Math.round(pageResult) };
  for (const name of Object.keys(LOAD_MEASURES)) {
    timings[name] = await page.evaluate((name) => performance.getEntriesByName(`whichgpu:${name}`)[0]?.duration ?? NaN, name);
  }
  return timings;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
