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
  // address (no workload, no language, no embedding in its query or
  // fragment), in English; folded as the page folds its form on a phone
  // (src/ui/document.rs's `narrow_screen`: 640 CSS pixels and narrower).
  // A build that drew it says so on the page's root (scripts/post-build.mjs).
  if (document.documentElement.hasAttribute('data-drawn') && !location.search && !location.hash && lang !== 'es') {
    document.documentElement.dataset.prerender = innerWidth <= 640 ? 'narrow' : 'wide';
  }
}
