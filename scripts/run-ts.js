#!/usr/bin/env node
// Runs a TypeScript entry point without a build step: every .ts file is compiled by swc on require,
// with the same options jest uses (.swcrc), so decorator metadata is emitted.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const { transformSync } = require("@swc/core");

const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, "..", ".swcrc"), "utf8"));
Module._extensions[".ts"] = function compileTs(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, "utf8"), { ...swcrc, filename, swcrc: false });
  module._compile(code, filename);
};

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-ts.js <file.ts> [args...]");
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(entry), ...args];
require(path.resolve(entry));
