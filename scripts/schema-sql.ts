// Prints the DDL for prisma/schema.prisma (what a first migration.sql holds). Usage:
//   node scripts/run-ts.js scripts/schema-sql.ts > prisma/migrations/<timestamp>_<name>/migration.sql
import fs from "node:fs";
import path from "node:path";
import { packageRoot } from "../src/db/package-root";
import { parsePrismaSchema, schemaToSql } from "../src/db/prisma-sql";

const models = parsePrismaSchema(fs.readFileSync(path.join(packageRoot, "prisma/schema.prisma"), "utf8"));
process.stdout.write(`CREATE EXTENSION IF NOT EXISTS "pg_trgm";\n\n${schemaToSql(models)}`);
