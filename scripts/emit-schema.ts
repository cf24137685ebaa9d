// Writes schema.graphql from the TypeGraphQL classes; with --check, fails when the committed file differs.
import fs from "node:fs";
import path from "node:path";
import { packageRoot } from "../src/db/package-root";
import { printSchemaSdl } from "../src/graphql/schema";

const file = path.join(packageRoot, "schema.graphql");
const sdl = printSchemaSdl();
if (process.argv.includes("--check")) {
  const committed = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  if (committed !== sdl) {
    console.error("schema.graphql is out of date: run `npm run generate` and commit the result");
    process.exit(1);
  }
  console.log("schema.graphql is up to date");
} else {
  fs.writeFileSync(file, sdl);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
