// The size report's breakdown of the WebAssembly module (issue 22): twiggy's
// items summed per crate, and the largest functions. Information only: it
// never fails the report.
//
// dist/'s module has no names (wasm-opt drops the name section), so twiggy
// reads the same build before wasm-opt: wasm-bindgen's output that Trunk
// leaves in target/. Sizes are raw bytes of that module, before wasm-opt
// and before gzip; the custom sections wasm-opt drops (names, producers)
// are left out of the sums.
//   node scripts/size-breakdown.mjs <pre-wasm-opt module> <dist's module> [top functions]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const [wasm, shippedModule, top = '25'] = process.argv.slice(2);
const items = JSON.parse(execFileSync('twiggy', ['top', '--retained', '-f', 'json', wasm], { maxBuffer: 64 << 20 }));

// The index after the `>` that closes the `<` at `start`, skipping `->`.
function closing(name, start) {
  let depth = 0;
  for (let i = start; i < name.length; i++) {
    if (name[i] === '<') depth++;
    else if (name[i] === '>' && name[i - 1] !== '-' && --depth === 0) return i;
  }
  return name.length;
}

// The crate a path starts with (`&mut alloc::vec::Vec<T>` → alloc), or
// undefined for a bare type parameter or a primitive (`F`, `[T]`, `u8`).
function leadingCrate(path) {
  const bare = path.replace(/^(?:&(?:mut )?|\*(?:const|mut) |dyn |\(|\[)+/, '');
  if (bare.startsWith('<')) return crateOf(bare);
  return bare.match(/^([A-Za-z_]\w*)::/)?.[1];
}

// A demangled symbol's crate: the first segment of its path; for
// `<Type as Trait>::f`, the type's crate when it names one, else the
// trait's; for drop glue (`core::ptr::drop_in_place<T>`), T's crate. A
// heuristic: generic code is counted where it was instantiated only when
// its name says so.
function crateOf(name) {
  if (name.startsWith('<')) {
    const end = closing(name, 0);
    const inner = name.slice(1, end);
    let depth = 0, as = -1;
    for (let i = 0; i < inner.length && as < 0; i++) {
      if (inner[i] === '<') depth++;
      else if (inner[i] === '>' && inner[i - 1] !== '-') depth--;
      else if (depth === 0 && inner.startsWith(' as ', i)) as = i;
    }
    // `<char>::f`, `<[T]>::f`: the inherent methods of primitives are core's.
    if (as < 0) return leadingCrate(inner) ?? 'core';
    return leadingCrate(inner.slice(0, as)) ?? leadingCrate(inner.slice(as + 4));
  }
  const drop = name.match(/^core::ptr::drop_in_place<(.*)>(?:::h[0-9a-f]{16})?$/);
  if (drop) return leadingCrate(drop[1]) ?? 'core';
  return name.match(/^([A-Za-z_]\w*)::/)?.[1];
}

// Every item twiggy lists, in a group: a crate, or what the item is.
function group(name) {
  if (name === '"function names" subsection' || name.startsWith('custom section ')) return null;
  if (/^data segment |^data\[\d+\]$/.test(name)) return '(data: strings, tables of constants)';
  if (/^(type|import|export|table|elem|memory|global)\b/.test(name)) return '(types, imports, exports, tables)';
  if (/^(__wbindgen|__wbg_|__externref)/.test(name)) return 'wasm_bindgen';
  // The standard library's v0 symbols name a crate with its hash: `core[c5930c85a12de822]::`.
  const crate = crateOf(name.replace(/\[[0-9a-f]{16}\]/g, ''));
  return crate ?? '(no crate in the name: compiler builtins, exports)';
}

const counted = items.map((item) => ({ ...item, group: group(item.name) })).filter((item) => item.group);
const total = counted.reduce((sum, item) => sum + item.shallow_size, 0);
const perGroup = new Map();
for (const item of counted) {
  const entry = perGroup.get(item.group) ?? { bytes: 0, items: 0 };
  entry.bytes += item.shallow_size;
  entry.items += 1;
  perGroup.set(item.group, entry);
}
const pct = (bytes) => `${((100 * bytes) / total).toFixed(1).padStart(5)}%`;
const kb = (bytes) => String(bytes).padStart(9);

// wasm-opt's output, the same bytes as dist/'s module when both come from
// the build in dist/: beside the module as `<name>.opt.wasm` for the split
// modules (scripts/split-module.mjs), in Trunk's wasm-opt directory for the
// others.
const besides = wasm.replace(/\.wasm$/, '.opt.wasm');
const optimised = existsSync(besides) ? besides : path.join(path.dirname(wasm), '../../wasm-opt/release', path.basename(wasm));
const same = existsSync(optimised) && readFileSync(optimised).equals(readFileSync(shippedModule));
const shippedBytes = statSync(shippedModule).size;
console.log(`\nthe module by crate, from ${path.relative(process.cwd(), wasm)}: dist/'s module before wasm-opt (which drops the names twiggy reads)`);
console.log(same
  ? `  (the build in dist/: wasm-opt makes these ${total} bytes ${shippedBytes}, ${(100 - (100 * shippedBytes) / total).toFixed(0)}% fewer, before gzip)`
  : `  (NOT the build in dist/: ${optimised} differs from ${shippedModule}; rebuild for a breakdown of dist/)`);
const groups = [...perGroup].sort((a, b) => b[1].bytes - a[1].bytes);
const shown = groups.slice(0, 20);
for (const [name, { bytes, items: count }] of shown) console.log(`${kb(bytes)} ${pct(bytes)}  ${name} (${count} items)`);
const rest = groups.slice(shown.length).reduce((sum, [, { bytes }]) => sum + bytes, 0);
if (rest) console.log(`${kb(rest)} ${pct(rest)}  ${groups.length - shown.length} more crates`);

console.log(`\nthe ${top} largest functions (shallow bytes, share, retained bytes: what removing the function would remove with it)`);
const functions = counted.filter((item) => !item.group.startsWith('('));
for (const item of functions.sort((a, b) => b.shallow_size - a.shallow_size).slice(0, Number(top))) {
  const name = item.name.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]{16}\]/g, '');
  console.log(`${kb(item.shallow_size)} ${pct(item.shallow_size)} ${kb(item.retained_size)}  ${name.length > 150 ? `${name.slice(0, 147)}...` : name}`);
}
