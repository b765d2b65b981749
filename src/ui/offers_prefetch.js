// Starts reading the offers while the WebAssembly module downloads and
// compiles, when the page has nothing else to do (issue 7: the first result
// within 500 ms). scripts/post-build.mjs puts this at the top of the loader,
// so it always runs before the module starts. The module takes the promise
// once (`whichgpuOffers`, src/ui/snapshot_loader.rs) and leaves `false`
// behind. The promise resolves to the body, read in full, or to the
// response when the server refused; it rejects when the network failed.
if (!('whichgpuOffers' in window)) {
  window.whichgpuOffers = fetch('data/offers.json').then((response) => (response.ok ? response.arrayBuffer() : response));
}
