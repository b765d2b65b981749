// Runs from <head>, before the body is drawn and before the module starts:
// scripts/post-build.mjs writes it as a classic script of its own, last in
// the head and preloaded first.
//
// Starts reading the offers and the catalog while the WebAssembly module
// downloads and compiles, when the page has nothing else to do (issue 7:
// the first result within 500 ms). The module
// takes each promise once (`whichgpuOffers`, `whichgpuCatalog`,
// src/ui/snapshot_loader.rs) and leaves `false` behind. A promise resolves
// to the body, read in full, or to the response when the server refused; it
// rejects when the network failed.
for (const [property, url] of [['whichgpuOffers', 'data/offers.json'], ['whichgpuCatalog', 'data/catalog.json']]) {
  if (!(property in window)) {
    window[property] = fetch(url).then((response) => (response.ok ? response.arrayBuffer() : response));
  }
}
// The page's Spanish (data/es.json, src/text/spanish.rs) when the page will
// open in Spanish: the link's `lang=`, else the browser's first language the
// page speaks, as the module reads them (src/ui/document.rs `page_lang`).
{
  const spoken = (code) => {
    const primary = String(code || '').trim().toLowerCase().split(/[-_]/)[0];
    return primary === 'en' || primary === 'es' ? primary : undefined;
  };
  const linked = new URLSearchParams(location.search).get('lang');
  const lang = spoken(linked) ?? (navigator.languages?.length ? navigator.languages : [navigator.language]).map(spoken).find(Boolean);
  if (lang === 'es' && !('whichgpuSpanish' in window)) {
    window.whichgpuSpanish = fetch('data/es.json').then((response) => (response.ok ? response.arrayBuffer() : response));
  }
  // The default page's first result drawn at build time (issue 38,
  // scripts/prerender.mjs) shows where the page will draw the same: a plain
  // address (no workload and no embedding in its query or fragment; a
  // language alone is plain), folded as the page folds its form on a phone
  // (src/ui/document.rs's `narrow_screen`: 640 CSS pixels and narrower).
  // A build that drew it says so on the page's root (scripts/post-build.mjs),
  // with the name of its Spanish copy: a page that opens in Spanish shows
  // nothing until that file comes (the loading note would move), then shows
  // it in place of the English copy, unless the page has drawn its own by
  // then (`data-live`, src/ui/document.rs's `remove_prerender`); without
  // the file, the loading note.
  const root = document.documentElement;
  const plain = !location.hash && (!location.search || /^\?lang=(en|es)$/.test(location.search));
  if (root.hasAttribute('data-drawn') && plain && (lang !== 'es' || root.dataset.drawnEs)) {
    root.dataset.prerender = innerWidth <= 640 ? 'narrow' : 'wide';
    if (lang === 'es') {
      root.lang = 'es';
      const show = (html) => {
        if (root.hasAttribute('data-live')) return;
        if (!html) {
          delete root.dataset.prerender;
          return;
        }
        document.querySelectorAll('.prerender').forEach((copy) => copy.remove());
        document.body.insertAdjacentHTML('afterbegin', html);
      };
      fetch(root.dataset.drawnEs)
        .then((response) => (response.ok ? response.text() : undefined), () => undefined)
        // The body is nearly always there by then; else once it is parsed.
        .then((html) => (document.body ? show(html) : document.addEventListener('readystatechange', () => show(html), { once: true })));
    }
  }
}
