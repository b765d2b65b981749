// whichgpu's service worker, written by scripts/post-build.mjs from
// scripts/sw.template.js: after one visit the page opens without a network,
// with the offers of that visit (the page shows their date).
//
// - Files named by their hash (code, style) never change: cache first.
// - The page, the catalog and the offers: the network first, so a visit
//   online always gets the newest; the cache when the network fails.
// - Each build caches under its own name; older caches are deleted once
//   the new one is complete.
const CACHE = '__CACHE__';
const FILES = __FILES__;

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
  // Cache keys are relative to the page; a link's workload is in its query,
  // so every query of a navigation is the same page.
  const key = event.request.mode === 'navigate' ? './' : `./${url.pathname.slice(SCOPE.length)}`;
  if (/-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/.test(key)) {
    event.respondWith(caches.match(key).then((hit) => hit || fetch(event.request)));
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && FILES.includes(key)) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((hit) => hit || Response.error())),
  );
});
