#!/usr/bin/env node
// Runs a TypeScript entry point without a build step: every .ts file is compiled by swc on require,
// with the same options jest uses (.swcrc), so decorator metadata is emitted. Compiled output is cached
// by content (node_modules/.cache/run-ts): the tests spawn the CLI and servers hundreds of times, and
// compiling the whole service anew each time was a third of every spawn's start.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const root = path.join(__dirname, "..");
const swcrcText = fs.readFileSync(path.join(root, ".swcrc"), "utf8");
const swcrc = JSON.parse(swcrcText);
const cacheDir = path.join(root, "node_modules", ".cache", "run-ts");
let swc;
let swcVersion;
try {
  swcVersion = require("@swc/core/package.json").version;
} catch {
  swcVersion = "unknown";
}

Module._extensions[".ts"] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, "utf8");
  const key = crypto.createHash("sha256").update(`${swcVersion}\0${swcrcText}\0${filename}\0${source}`).digest("hex");
  const cached = path.join(cacheDir, `${key}.js`);
  let code;
  try {
    code = fs.readFileSync(cached, "utf8");
  } catch {
    swc ??= require("@swc/core");
    code = swc.transformSync(source, { ...swcrc, filename, swcrc: false }).code;
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      // Written whole under a temporary name, then renamed: a concurrent reader never sees half a file.
      const temporary = `${cached}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, code);
      fs.renameSync(temporary, cached);
    } catch {
      // A read-only checkout still runs, uncached.
    }
  }
  module._compile(code, filename);
};

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-ts.js <file.ts> [args...]");
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(entry), ...args];
require(path.resolve(entry));
