/**
 * Turns prisma/schema.prisma into PostgreSQL DDL, the way `prisma migrate diff --from-empty` would.
 * Prisma's schema engine binary cannot be downloaded here, so this covers the subset our schema uses:
 * scalar fields, lists, @id/@unique/@default/@db.*, @@id/@@unique/@@index (type: Gin, ops: raw(...),
 * sort: Desc, map:) and @@map. Relation fields have no column, and unlike Prisma no foreign key is made for
 * them (the schema's datasource comment says why).
 * Anything else is rejected loudly rather than silently mistranslated.
 */
export interface PrismaField {
  name: string;
  type: string;
  list: boolean;
  optional: boolean;
  attributes: string;
}
export interface PrismaIndexColumn {
  name: string;
  ops?: string;
  desc?: boolean;
}
export interface PrismaIndex {
  kind: "index" | "unique" | "id";
  columns: PrismaIndexColumn[];
  gin: boolean;
  map?: string;
}
export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  indexes: PrismaIndex[];
}

const SCALARS = new Set(["String", "Int", "Float", "Boolean", "DateTime", "Json", "BigInt", "Decimal"]);

export function parsePrismaSchema(source: string): PrismaModel[] {
  const text = source.replace(/\/\/.*$/gm, "");
  const models: PrismaModel[] = [];
  const modelNames = new Set([...text.matchAll(/\bmodel\s+(\w+)\s*\{/g)].map((m) => m[1]));
  for (const match of text.matchAll(/\bmodel\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const [, name, body] = match;
    const model: PrismaModel = { name, table: name, fields: [], indexes: [] };
    for (const raw of body.split("\n")) {
      const line = raw.trim();
      if (!line) continue;
      if (line.startsWith("@@")) {
        parseBlockAttribute(model, line);
        continue;
      }
      const m = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!m) throw new Error(`${name}: cannot parse field line "${line}"`);
      const [, fieldName, type, list, optional, attributes] = m;
      // A relation field is the client's view of a column another field holds: no column of its own.
      if (modelNames.has(type)) continue;
      if (!SCALARS.has(type)) throw new Error(`${name}.${fieldName}: relation or unsupported type ${type}`);
      model.fields.push({ name: fieldName, type, list: !!list, optional: !!optional, attributes });
      if (/@id\b/.test(attributes)) model.indexes.push({ kind: "id", columns: [{ name: fieldName }], gin: false });
      if (/@unique\b/.test(attributes)) model.indexes.push({ kind: "unique", columns: [{ name: fieldName }], gin: false });
    }
    models.push(model);
  }
  return models;
}

function parseBlockAttribute(model: PrismaModel, line: string): void {
  const m = /^@@(\w+)\((.*)\)$/.exec(line);
  if (!m) throw new Error(`${model.name}: cannot parse "${line}"`);
  const [, attr, args] = m;
  if (attr === "map") {
    model.table = JSON.parse(args.trim());
    return;
  }
  if (attr !== "index" && attr !== "unique" && attr !== "id") throw new Error(`${model.name}: unsupported @@${attr}`);
  const list = /^\[(.*?)\](.*)$/.exec(args.trim());
  if (!list) throw new Error(`${model.name}: cannot parse columns of "${line}"`);
  const columns = splitTopLevel(list[1]).map((col): PrismaIndexColumn => {
    const c = /^(\w+)(?:\((.*)\))?$/.exec(col.trim());
    if (!c) throw new Error(`${model.name}: cannot parse index column "${col}"`);
    const opts = c[2] ?? "";
    const ops = /ops:\s*raw\("([^"]+)"\)/.exec(opts)?.[1];
    return { name: c[1], ops, desc: /sort:\s*Desc/.test(opts) };
  });
  const rest = list[2];
  model.indexes.push({
    kind: attr,
    columns,
    gin: /type:\s*Gin/.test(rest),
    map: /map:\s*"([^"]+)"/.exec(rest)?.[1],
  });
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth += 1;
    if (ch === ")") depth -= 1;
    if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

function columnType(field: PrismaField): string {
  const db = /@db\.(\w+)(?:\(([^)]*)\))?/.exec(field.attributes);
  let type: string;
  if (db) {
    const [, native, arg] = db;
    const map: Record<string, string> = { Uuid: "UUID", Timestamptz: "TIMESTAMPTZ", Date: "DATE", Real: "REAL", Text: "TEXT" };
    if (!map[native]) throw new Error(`unsupported @db.${native}`);
    type = map[native] + (arg ? `(${arg})` : "");
  } else {
    const map: Record<string, string> = {
      String: "TEXT",
      Int: "INTEGER",
      Float: "DOUBLE PRECISION",
      Boolean: "BOOLEAN",
      DateTime: "TIMESTAMP(3)",
      Json: "JSONB",
      BigInt: "BIGINT",
      Decimal: "DECIMAL(65,30)",
    };
    type = map[field.type];
  }
  return field.list ? `${type}[]` : type;
}

function columnDefault(field: PrismaField): string | undefined {
  const start = field.attributes.indexOf("@default(");
  if (start < 0) return undefined;
  const value = balancedArgument(field.attributes, start + "@default".length).trim();
  const generated = /^dbgenerated\("(.*)"\)$/.exec(value);
  if (generated) return generated[1];
  if (value === "now()") return "CURRENT_TIMESTAMP";
  if (value.startsWith('"')) return `'${JSON.parse(value).replace(/'/g, "''")}'`;
  if (/^(true|false|-?\d+(\.\d+)?)$/.test(value)) return value;
  if (value === "[]") return `ARRAY[]::${columnType(field)}`;
  throw new Error(`${field.name}: unsupported default ${value}`);
}

/** The text inside the parentheses that open at `open`, honouring nesting and quoted strings. */
function balancedArgument(text: string, open: number): string {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '"' && text[i - 1] !== "\\") inString = !inString;
    if (inString) continue;
    if (ch === "(") depth += 1;
    if (ch === ")" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced parentheses in "${text}"`);
}

const quote = (name: string) => `"${name}"`;
const truncate = (name: string) => name.slice(0, 63);

export function indexName(model: PrismaModel, index: PrismaIndex): string {
  if (index.map) return index.map;
  const cols = index.columns.map((c) => c.name).join("_");
  const suffix = index.kind === "id" ? "pkey" : index.kind === "unique" ? "key" : "idx";
  return index.kind === "id" ? `${model.table}_pkey` : truncate(`${model.table}_${cols}_${suffix}`);
}

/** DDL for the whole schema, in Prisma's migration.sql layout. */
export function schemaToSql(models: PrismaModel[]): string {
  const out: string[] = [];
  for (const model of models) {
    const lines = model.fields.map((field) => {
      const parts = [`    ${quote(field.name)} ${columnType(field)}`];
      if (!field.optional && !field.list) parts.push("NOT NULL");
      const def = columnDefault(field);
      if (def !== undefined) parts.push(`DEFAULT ${def}`);
      return parts.join(" ");
    });
    const pk = model.indexes.find((i) => i.kind === "id");
    if (!pk) throw new Error(`${model.name} has no primary key`);
    lines.push(`    CONSTRAINT ${quote(indexName(model, pk))} PRIMARY KEY (${pk.columns.map((c) => quote(c.name)).join(", ")})`);
    out.push(`-- CreateTable\nCREATE TABLE ${quote(model.table)} (\n${lines.join(",\n")}\n);\n`);
  }
  for (const model of models) {
    for (const index of model.indexes) {
      if (index.kind === "id") continue;
      const cols = index.columns.map((c) => `${quote(c.name)}${c.ops ? ` ${c.ops}` : ""}${c.desc ? " DESC" : ""}`).join(", ");
      const unique = index.kind === "unique" ? "UNIQUE " : "";
      const using = index.gin ? " USING GIN" : "";
      out.push(`-- CreateIndex\nCREATE ${unique}INDEX ${quote(indexName(model, index))} ON ${quote(model.table)}${using} (${cols});\n`);
    }
  }
  return out.join("\n");
}
