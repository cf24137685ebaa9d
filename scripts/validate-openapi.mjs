#!/usr/bin/env node
/* global process, console */
// Validates an OpenAPI document (a file path, or JSON on standard input) with @seriousme/openapi-schema-validator
// and prints { valid, version, errors }; exits 1 when invalid. An ES module: the validator ships ESM only.
import fs from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";

const source = process.argv[2] ? fs.readFileSync(process.argv[2], "utf8") : fs.readFileSync(0, "utf8");
const validator = new Validator();
const result = await validator.validate(JSON.parse(source));
console.log(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }));
process.exit(result.valid ? 0 : 1);
