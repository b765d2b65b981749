// Trunk post_build hook (Trunk.toml): moves the loader Trunk writes inline
// into index.html (`import init … await init(…)`) into its own file, so the
// page runs under its Content-Security-Policy (index.html), which allows
// scripts from the page's own origin only, never inline (issue 10).
//
// Trunk 0.21 has no option for this (trunk-rs/trunk#288). The loader is
// written as `boot-<hash>.js` beside the bindings it imports, and loaded
// with a subresource-integrity hash like Trunk's other scripts. The build
// fails if index.html has no inline loader, or any other inline script.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('csp-boot.mjs runs as a Trunk post_build hook (TRUNK_STAGING_DIR is unset)');
const htmlPath = path.join(staging, 'index.html');
const html = readFileSync(htmlPath, 'utf8');

const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)];
if (inline.length !== 1 || !/type="module"/.test(inline[0][1]) || !inline[0][2].includes('await init(')) {
  throw new Error(`expected exactly one inline script, Trunk's module loader; found ${inline.length}`);
}
const [tag, , body] = inline[0];
const code = `${body.trim()}\n`;
const digest = (algorithm) => createHash(algorithm).update(code).digest();
const name = `boot-${digest('sha256').toString('hex').slice(0, 16)}.js`;
writeFileSync(path.join(staging, name), code);
const integrity = `sha384-${digest('sha384').toString('base64')}`;
const external = `<script type="module" src="./${name}" integrity="${integrity}" crossorigin="anonymous"></script>`;
writeFileSync(htmlPath, html.replace(tag, external));
console.log(`csp-boot: the loader is now ${name}`);
