#!/usr/bin/env node
"use strict";
// The CLI runs the compiled build (npm install runs `npm run build` as postinstall).
require("../dist/bin/cli.js");
