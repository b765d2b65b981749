// The page's module in two (issue 38), for scripts/post-build.mjs: the code
// the first result needs, and the rest (src/ui/later.rs), which the page
// fetches once the first result is on screen or when a part it draws is
// first used.
//
// Trunk builds, binds and writes the whole module; this step replaces what
// it wrote with the module cut at the split points (`wasm_split` functions,
// the `split` feature), as cargo-leptos does for `#[lazy]`:
// 1. `wasm-split-cli` (crate wasm_split_cli_support, installed by
//    scripts/setup.sh) reads the linked module Cargo left in target/ (linked
//    with --emit-relocs, .cargo/config.toml) and writes the first module, one
//    module per split, and `__wasm_split.js`, which fetches and instantiates
//    them into the first module's memory and table;
// 2. wasm-bindgen binds the first module as Trunk did (the same version, the
//    same target), keeping the exports the split modules import (the
//    function table: --keep-lld-exports);
// 3. wasm-opt -Oz shrinks every module (Trunk's own pass is off for this
//    one: data-wasm-opt="0" in index.html).
// The split modules and the link script are named by their content's hash,
// like Trunk's files, so that caches may keep them for good; the page's
// preloads of the bindings and the module get their new integrity hashes.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/// The features of the target (rustc's wasm32 defaults) for wasm-opt on a
/// split module, which, unlike the first, has no target-features section.
const FEATURES = [
  '--enable-bulk-memory',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-reference-types',
  '--enable-multivalue',
];

const run = (command, args) => execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const digest = (algorithm, data) => createHash(algorithm).update(data).digest();
const named = (prefix, data, extension) => `${prefix}-${digest('sha256', data).toString('hex').slice(0, 16)}.${extension}`;
const integrityOf = (data) => `sha384-${digest('sha384', data).toString('base64')}`;

/// Splits the module `bin` in `staging`, whose index.html is `html`;
/// returns the page with its preloads' integrity updated, and the names of
/// the modules fetched later.
export function splitModule({ staging, html, bin, targetDir, profile }) {
  const bound = readdirSync(staging).find((f) => f.startsWith(`${bin}-`) && f.endsWith('_bg.wasm'));
  if (!bound) throw new Error(`split: no ${bin}-<hash>_bg.wasm in ${staging}`);
  const stem = bound.slice(0, -'_bg.wasm'.length);
  const linked = path.join(targetDir, 'wasm32-unknown-unknown', profile, `${bin}.wasm`);
  // Kept after the build: scripts/size-report.sh reads the names in the
  // modules before wasm-opt (bound/<stem>_bg.wasm, split_*.wasm), each beside
  // its optimized copy (*.opt.wasm).
  const work = path.join(targetDir, 'wasm-split', profile);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  run('wasm-split-cli', [linked, work, '--out-name', stem]);
  const splits = readdirSync(work).filter((f) => /^split_\w+\.wasm$/.test(f));
  if (splits.length === 0) throw new Error(`split: ${linked} has no split points (built without the split feature?)`);
  run(
    'wasm-bindgen',
    [
      '--target=web',
      `--out-dir=${path.join(work, 'bound')}`,
      `--out-name=${stem}`,
      '--no-typescript',
      '--keep-lld-exports',
      path.join(work, `${stem}.wasm`),
    ],
  );
  const first = path.join(work, 'bound', `${stem}_bg.wasm`);
  run('wasm-opt', [`--output=${first.replace(/\.wasm$/, '.opt.wasm')}`, '-Oz', first]);
  copyFileSync(first.replace(/\.wasm$/, '.opt.wasm'), path.join(staging, bound));
  // Each split module, optimized, under its hash.
  let link = readFileSync(path.join(work, '__wasm_split.js'), 'utf8');
  const later = [];
  for (const split of splits) {
    const optimized = path.join(work, split.replace(/\.wasm$/, '.opt.wasm'));
    run('wasm-opt', [`--output=${optimized}`, '-Oz', ...FEATURES, path.join(work, split)]);
    const bytes = readFileSync(optimized);
    const name = named(split.slice('split_'.length, -'.wasm'.length), bytes, 'wasm');
    writeFileSync(path.join(staging, name), bytes);
    const quoted = `"./${split}"`;
    if (!link.includes(quoted)) throw new Error(`split: __wasm_split.js does not fetch ${quoted}`);
    link = link.replace(quoted, `"./${name}"`);
    later.push(name);
  }
  const linkName = named('split', link, 'js');
  writeFileSync(path.join(staging, linkName), link);
  // The bindings import the link script by its new name (the module's
  // imports keep the name wasm-split gave them).
  const bindings = readFileSync(path.join(work, 'bound', `${stem}.js`), 'utf8');
  const imported = /^(import \* as \w+ from )(["'])\.\/__wasm_split\.js\2/m;
  if (!imported.test(bindings)) throw new Error(`split: ${stem}.js does not import ./__wasm_split.js`);
  const js = bindings.replace(imported, `$1"./${linkName}"`);
  writeFileSync(path.join(staging, `${stem}.js`), js);
  // The preloads Trunk wrote, with the new files' integrity; the link
  // script is preloaded beside the bindings, which import it.
  const wasm = readFileSync(path.join(staging, bound));
  let page = html;
  for (const [file, data] of [[`${stem}.js`, js], [bound, wasm]]) {
    const preload = new RegExp(`(href="\\./${file}"[^>]*integrity=")[^"]+(")`);
    if (!preload.test(page)) throw new Error(`split: index.html has no preload of ${file} with an integrity hash`);
    page = page.replace(preload, `$1${integrityOf(data)}$2`);
  }
  const modulePreload = `<link rel="modulepreload" href="./${stem}.js"`;
  if (!page.includes(modulePreload)) throw new Error(`split: index.html does not preload ./${stem}.js`);
  page = page.replace(
    modulePreload,
    `<link rel="modulepreload" href="./${linkName}" crossorigin="anonymous" integrity="${integrityOf(link)}">${modulePreload}`,
  );
  return { html: page, later };
}
