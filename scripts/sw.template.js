// whichgpu's service worker, written by scripts/post-build.mjs from
// scripts/sw.template.js: after one visit the page opens without a network,
// with the offers of that visit (the page shows their date).
//
// - Files named by their hash (code, style) and the catalog, whose URL
//   carries its hash (`?v=`), never change: cache first.
// - The page and the offers: the network first, so a visit online always
//   gets the newest; the cache when the network fails.
// - The page is kept once, as `./`: it answers the navigations to `./` and
//   `./index.html`, whatever their query (a link's workload).
// - Each build caches under its own name; older caches are deleted once
//   the new one is complete.
const CACHE = '__CACHE__';
const FILES = __FILES__;
// Kept once the page asks for them, not fetched at install: the
// model-import worker's files, which only an import needs.
const LATER = __LATER__;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('whichgpu-') && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// The page's directory (the app may live under a sub-path such as /whichgpu/).
const SCOPE = new URL('./', self.location).pathname;

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  // Cache keys are relative to the page, with their query (the catalog's
  // names its version), but a navigation to the page: a link's workload is
  // in its query, and every query is the same page.
  const path = url.pathname.slice(SCOPE.length);
  const page = event.request.mode === 'navigate' && (path === '' || path === 'index.html');
  const key = page ? './' : `./${path}${url.search}`;
  // Trunk names files by a 64-bit hash in hex without its leading zeros
  // (whichgpu-3e38b0e70ebc216.js): 12 to 16 digits but once in a million;
  // scripts/post-build.mjs names the Spanish first result's copy alike
  // (first-es-<hash>.html).
  if (/-[0-9a-f]{12,16}(_bg)?\.(js|wasm|css|html)$|\?v=[0-9a-f]{16}$/.test(key)) {
    event.respondWith(caches.match(key).then((hit) => hit || fetch(event.request)));
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && (FILES.includes(key) || LATER.includes(key))) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      // Offline, a URL without its version (the catalog's, on a Retry) gets
      // the one kept.
      .catch(() => caches.match(key).then((hit) => hit || caches.match(key, { ignoreSearch: true })).then((hit) => hit || Response.error())),
  );
});
