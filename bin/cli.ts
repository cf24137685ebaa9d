/**
 * The composition root: the CLI (src/) with the REST adapter (rest-adapter/) wired in. src/ never
 * imports rest-adapter/; this file is the one place that knows both.
 */
import "reflect-metadata";
import { runCli } from "../src/cli/main";
import { restAdapter } from "../rest-adapter";

runCli(process.argv.slice(2), { rest: restAdapter });
