// Trunk post_build hook (Trunk.toml), run on the staging directory before
// it becomes dist/ (issue 10). Three steps, in order:
//
// 0. The module in two (issue 38, scripts/split-module.mjs): what the first
//    result needs, and the parts drawn after it (src/ui/later.rs).
// 1. Content-Security-Policy: moves the loader Trunk writes inline into
//    index.html (`import init … await init(…)`) into its own file, so the
//    page runs under its policy (index.html), which allows scripts from the
//    page's origin only, never inline. Trunk 0.21 has no option for this
//    (trunk-rs/trunk#288). The loader is written as `boot-<hash>.js` beside
//    the bindings it imports and loaded with a subresource-integrity hash,
//    like Trunk's other scripts. The build fails if index.html has no inline
//    loader, or any other inline script. The offers' and the catalog's prefetch
//    (src/ui/prefetch.js) is a classic script of its own, last in the head
//    and preloaded first: it runs before the body is drawn and
//    before the module starts, while the module still downloads; the
//    catalog's URL there and in the page's preload carries its hash. The
//    icon goes into the page, as a data: URL.
// 2. The default page's first result, drawn at build time in headless
//    Chromium (issue 38, scripts/prerender.mjs), at the top of the body:
//    a plain visit shows it from the first paint until the page draws its own;
//    in Spanish, a file of its own (first-es-<hash>.html) that the prefetch
//    script puts there when the page opens in Spanish.
// 3. Offline: writes the service worker `sw.js` (src/ui/offline.rs
//    registers it) with the list of the files the page needs, and a cache
//    name that changes whenever the list or one of the files does.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prerender } from './prerender.mjs';
import { splitModule } from './split-module.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('post-build.mjs runs as a Trunk post_build hook (TRUNK_STAGING_DIR is unset)');
const hash = (algorithm, data) => createHash(algorithm).update(data).digest();

// 0. The module in two.
const htmlPath = path.join(staging, 'index.html');
const source = process.env.TRUNK_SOURCE_DIR ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const { html } = splitModule({
  staging,
  html: readFileSync(htmlPath, 'utf8'),
  bin: 'whichgpu',
  targetDir: process.env.CARGO_TARGET_DIR ?? path.join(source, 'target'),
  profile: process.env.TRUNK_PROFILE === 'debug' ? 'debug' : 'release',
});

// 1. The loader, out of index.html.
const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)];
if (inline.length !== 1 || !/type="module"/.test(inline[0][1]) || !inline[0][2].includes('await init(')) {
  throw new Error(`expected exactly one inline script, Trunk's module loader; found ${inline.length}`);
}
const [tag, , body] = inline[0];
const here = path.dirname(new URL(import.meta.url).pathname);
// The scripts written from a source here go without its comment lines:
// they are for the source, not the page.
const withoutComments = (text) => text.replace(/^\s*\/\/.*\n/gm, '');
// The catalog is asked for with its content's hash in the query, in the
// loader and in the page's preload alike: a browser or proxy cache that
// still holds the last build's catalog (GitHub Pages allows ten minutes)
// never pairs it with this build's module. The page reads it before it
// builds the form, and a new field would fail an old file's parse.
const versionOf = (file) => `${file}?v=${hash('sha256', readFileSync(path.join(staging, file))).toString('hex').slice(0, 16)}`;
const catalogUrl = versionOf('data/catalog.json');
// The page's Spanish (src/text/spanish.rs) likewise: a file from another
// build would not match the module's phrases.
const spanishUrl = versionOf('data/es.json');
const versioned = (text, quoted, file = 'data/catalog.json', url = catalogUrl) => {
  if (!text.includes(quoted)) throw new Error(`expected ${quoted} to version the URL of ${file}`);
  return text.replace(quoted, quoted.replace(file, url));
};
const prefetch = versioned(
  versioned(withoutComments(readFileSync(path.join(here, '../src/ui/prefetch.js'), 'utf8')), "'data/catalog.json'"),
  "'data/es.json'",
  'data/es.json',
  spanishUrl,
);
const loader = `${body.trim()}\n`;
const bootName = `boot-${hash('sha256', loader).toString('hex').slice(0, 16)}.js`;
writeFileSync(path.join(staging, bootName), loader);
const integrity = `sha384-${hash('sha384', loader).toString('base64')}`;
// The icon, in the page as a data: URL (issue 22). Chromium asks for a
// page's icon again whenever its address changes, and the page's address bar
// settles to a link's clean form as it loads (history.replaceState): the
// file came twice, and a third time into the service worker's cache, on a
// host that does not let browsers keep it. public/favicon.svg is its source.
// Single quotes and a few escapes keep it short in a double-quoted attribute.
const svg = readFileSync(path.join(here, '../public/favicon.svg'), 'utf8').trim().replace(/"/g, "'");
const icon = `href="data:image/svg+xml,${svg.replace(/[%#<>]/g, encodeURIComponent)}"`;
if (!html.includes('href="favicon.svg"')) throw new Error('expected the icon at href="favicon.svg" in index.html');
// The prefetch as its own file, named by its content. The script goes
// last in the head, after the page's other requests, which the parser asks
// for as it reads them: the parser waits for the script, and the
// browser's preload scanner did not ask for what follows it any sooner (on
// the throttled link the module came 170 ms later with the script first).
// A preload first in the head asks for the script before the rest: on a
// host that serves six requests at a time (HTTP/1.1), asked for last it
// waited behind the module's download (the first result drawn at build
// time painted at 800 ms instead of under 700 on the throttled link).
const prefetchText = `${prefetch.trim()}\n`;
const prefetchName = `prefetch-${hash('sha256', prefetchText).toString('hex').slice(0, 16)}.js`;
writeFileSync(path.join(staging, prefetchName), prefetchText);
const sri = `integrity="sha384-${hash('sha384', prefetchText).toString('base64')}" crossorigin="anonymous"`;
let page = versioned(html, 'href="data/catalog.json"')
  .replace('href="favicon.svg"', icon)
  .replace(tag, `<script type="module" src="./${bootName}" integrity="${integrity}" crossorigin="anonymous"></script>`);
for (const place of ['</title>', '</head>']) if (!page.includes(place)) throw new Error(`expected ${place} in index.html`);
page = page
  .replace('</title>', `</title>\n    <link rel="preload" href="./${prefetchName}" as="script" ${sri}>`)
  .replace('</head>', `<script src="./${prefetchName}" ${sri}></script></head>`);
writeFileSync(htmlPath, page);
console.log(`post-build: the loader is now ${bootName}`);

// 2. The default page's first result, drawn from the site as built so far.
const drawn = process.env.TRUNK_PROFILE === 'debug' ? { skipped: 'a debug build (trunk serve)' } : await prerender(staging);
if (drawn.skipped) {
  console.log(`post-build: no first result drawn at build time: ${drawn.skipped}`);
} else {
  // The page says it holds the copy on its root element, which the
  // prefetch script reads before the body is parsed.
  // The Spanish copy is a file of its own, named by its content, which the
  // prefetch script fetches for a page that opens in Spanish (its name on
  // the root element): the English page does not carry it.
  for (const place of ['<html lang="en">', '<body>']) if (!page.includes(place)) throw new Error(`expected ${place} in index.html`);
  const copyOf = (html, lang) => `<div class="prerender" lang="${lang}" inert>${html}</div>`;
  const copy = copyOf(drawn.html, 'en');
  const spanish = copyOf(drawn.es, 'es');
  const spanishName = `first-es-${hash('sha256', spanish).toString('hex').slice(0, 16)}.html`;
  writeFileSync(path.join(staging, spanishName), spanish);
  page = page
    .replace('<html lang="en">', `<html lang="en" data-drawn data-drawn-es="${spanishName}">`)
    .replace('<body>', `<body>\n${copy}`);
  writeFileSync(htmlPath, page);
  console.log(`post-build: the default page's first result drawn into the page (${Buffer.byteLength(copy)} bytes), and in Spanish into ${spanishName} (${Buffer.byteLength(spanish)} bytes)`);
}

// 3. The service worker, with what the page needs offline: the page (the
// icon is in it), its code and style, the catalog, the offers and the hosted APIs' prices, each under the one URL the
// page asks for (relative to the page), so that the worker's downloads at
// install are the page's own, which the browser's HTTP cache still holds
// (issue 22): the page as `./` only (the worker answers `./index.html` with
// it), and the catalog with its hash.
// The model-import worker (import_worker*, issue 27) is not fetched at
// install: a visitor who never imports never downloads it. The worker keeps
// it once the page has asked for it (LATER), so an import works offline after
// one import online.
const onDemand = (f) => f.startsWith('import_worker');
const code = readdirSync(staging).filter((f) => (/\.(js|wasm|css|svg)$/.test(f) && f !== 'sw.js') || /^first-es-[0-9a-f]{16}\.html$/.test(f));
const needed = ['index.html', ...code.filter((f) => !onDemand(f)), 'data/catalog.json', 'data/es.json', 'data/hosted.json', 'data/offers.json'].sort();
const later = code.filter(onDemand).sort();
const asked = { 'index.html': '', 'data/catalog.json': catalogUrl, 'data/es.json': spanishUrl };
const files = needed.map((f) => `./${asked[f] ?? f}`);
const contents = createHash('sha256').update(JSON.stringify(files));
for (const file of [...needed, ...later]) contents.update(readFileSync(path.join(staging, file)));
const version = contents.digest('hex').slice(0, 16);
const worker = withoutComments(readFileSync(path.join(here, 'sw.template.js'), 'utf8'))
  .replace('__CACHE__', `whichgpu-${version}`)
  .replace('__FILES__', JSON.stringify(files))
  .replace('__LATER__', JSON.stringify(later.map((f) => `./${f}`)));
writeFileSync(path.join(staging, 'sw.js'), worker);
console.log(`post-build: sw.js caches ${needed.length} files as whichgpu-${version}`);
