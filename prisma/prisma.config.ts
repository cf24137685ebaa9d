// Prisma CLI config. The schema engine binary cannot be downloaded here; `generate` does not need it,
// so point the CLI at a stub. Migrations are applied by our own runner (src/db/migrate.ts).
import path from "node:path";
import { defineConfig } from "prisma/config";

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";

export default defineConfig({
  schema: path.join(__dirname, "schema.prisma"),
  migrations: { path: path.join(__dirname, "migrations") },
});
