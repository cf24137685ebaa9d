#!/usr/bin/env node
// `npm run build` (and so `npm install`'s postinstall), after `prisma generate`: every TypeScript file of the
// service to dist/ with swc, the compiler the tests and scripts/run-ts.js already run the service through (same
// .swcrc), file for file as tsc laid them out (dist/src, dist/bin, ...). Types are checked by `npm run check`
// (tsc --noEmit over these files and the tests), not here: the build's tsc was a second full type-check of the
// same files, 16 s of every install and of CI's serial start.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const swc = require("@swc/core");

const root = path.join(__dirname, "..");
/** The folders of the service and its tools (tsconfig.json type-checks them with the tests). */
const FOLDERS = ["src", "rest-adapter", "bin", "scripts", "bench"];
const options = { ...JSON.parse(fs.readFileSync(path.join(root, ".swcrc"), "utf8")), swcrc: false };

function sources(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(file));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(file);
  }
  return out;
}

async function main() {
  const files = FOLDERS.flatMap((folder) => sources(path.join(root, folder)));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const file = files[i];
      const { code } = await swc.transformFile(file, { ...options, filename: file });
      const target = path.join(root, "dist", path.relative(root, file)).replace(/\.ts$/, ".js");
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, code);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  process.stdout.write(`build: ${files.length} files compiled to dist/\n`);
}

main().catch((error) => {
  process.stderr.write(`build failed: ${error.message}\n`);
  process.exit(1);
});
