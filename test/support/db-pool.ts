/**
 * Embedded databases reused within one jest file: a folder bundle (test/support/bundle.ts) runs dozens of member
 * files, each opening its own database, and a PGlite boot (most of it Emscripten's file system creating some 1,500
 * files in JavaScript) was most of a member's fixed cost. A closed database goes back to the pool only if it can be
 * made exactly the template again, else it is closed as before:
 * - reset: any open transaction rolled back, DISCARD ALL (prepared statements, session settings, temporary tables,
 *   advisory locks, LISTEN), the schemas the template lacks dropped (pg-boss's), every table but the migration ledger
 *   truncated with its sequences, and the planner statistics an ANALYZE wrote deleted;
 * - check: a fingerprint of the catalogue (schemas, relations with their planner sizes, columns, defaults,
 *   constraints, indexes, functions, triggers, types, views, extensions, roles, settings, sequences, statistics) and of
 *   the migration ledger, equal to the one taken when the instance was booted from the template.
 * Each database handed out is a fence over the instance: once its holder closes it, whatever that file left running
 * (a job, a late request) meets "PGlite is closed", as on an instance really closed, and never the next file's data.
 */
import type { PGlite } from "@electric-sql/pglite";
import { bootPglite, queryable, type Queryable } from "../../src/db/client";
import { truncateAll } from "./truncate";

interface Pooled {
  pglite: PGlite;
  /** The instance's own query and exec (not a holder's fence). */
  q: Queryable;
  /** The catalogue fingerprint of the template, taken at boot. */
  baseline: string;
  schemas: string[];
  /** The planner's sizes of every relation at boot, as JSON: TRUNCATE sets an index's to those of one never built. */
  sizes: string;
}

/** Instances kept idle between files: a member rarely holds more than one database at a time. */
const MAX_IDLE = 2;
/** A reset that waits longer than this on the previous holder's work gives the instance up. */
const RESET_TIMEOUT_MS = 10_000;

let enabled = false;
const idle: Pooled[] = [];
const releasing = new Set<Promise<void>>();
/** What the pool did, for its test (test/db/db-pool.test.ts) and for measuring it. */
export const poolStats = { booted: 0, reused: 0, discarded: 0 };

/** Turns pooling on for this jest file (bundle.ts), closing the idle instances after its last test. */
export function enableEmbeddedPool(): void {
  if (enabled || process.env.EDMARKET_TEST_DB_POOL === "0") return;
  enabled = true;
  afterAll(closeEmbeddedPool);
}

export const embeddedPoolEnabled = (): boolean => enabled;

export async function closeEmbeddedPool(): Promise<void> {
  enabled = false; // a database closed later is closed for good
  await Promise.all(releasing);
  await Promise.all(idle.splice(0).map((p) => p.pglite.close().catch(() => undefined)));
}

/** An instance holding the template, fenced for one holder: an idle one made clean, else a new boot from `template`. */
export async function pooledInstance(template: () => Blob): Promise<PGlite> {
  await Promise.all(releasing);
  let pooled = idle.pop();
  if (pooled) poolStats.reused += 1;
  else {
    const pglite = await bootPglite("memory://", { loadDataDir: template() });
    const q = queryable(pglite);
    const [{ sizes }] = await q.query<{ sizes: string }>(
      `SELECT json_agg(json_build_object('oid', oid, 'relpages', relpages, 'reltuples', reltuples, 'relallvisible', relallvisible))::text AS sizes
         FROM pg_class WHERE oid >= ${USER}`,
    );
    const schemas = (await q.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_(toast_)?temp_'`)).map(
      (r) => r.nspname,
    );
    pooled = { pglite, q, schemas, baseline: await fingerprint(q), sizes };
    poolStats.booted += 1;
  }
  return fence(pooled);
}

function fence(pooled: Pooled): PGlite {
  const { pglite } = pooled;
  // Properties the holder sets (the turn-taking wrappers of src/db/client.ts) stay on its fence, not the instance.
  const own = new Map<PropertyKey, unknown>();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    const release = give(pooled).finally(() => releasing.delete(release));
    releasing.add(release);
    await release;
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (own.has(property)) return own.get(property);
      if (property === "close") return close;
      if (property === "closed") return closed || target.closed;
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => (closed ? Promise.reject(new Error("PGlite is closed")) : value.apply(target, args));
    },
    set(_target, property, value) {
      own.set(property, value);
      return true;
    },
  });
}

/** Back to the pool if the reset leaves the template exactly, else closed. */
async function give(pooled: Pooled): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const clean = await Promise.race([
    reset(pooled).then(async () => (await fingerprint(pooled.q)) === pooled.baseline),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), RESET_TIMEOUT_MS))),
  ]).catch(() => false);
  clearTimeout(timer);
  if (clean && enabled && idle.length < MAX_IDLE) idle.push(pooled);
  else {
    if (!clean) poolStats.discarded += 1;
    // Not awaited: an instance still busy with its holder's work would hold the next file up.
    void pooled.pglite.close().catch(() => undefined);
  }
}

async function reset({ q, schemas, sizes }: Pooled): Promise<void> {
  // ROLLBACK outside a transaction is only a warning; DISCARD ALL refuses a transaction block.
  await q.exec("ROLLBACK");
  await q.exec("DISCARD ALL");
  const extra = await q.query<{ name: string }>(
    `SELECT quote_ident(nspname) AS name FROM pg_namespace WHERE NOT (nspname = ANY($1)) AND nspname !~ '^pg_(toast_)?temp_'`,
    [schemas],
  );
  for (const { name } of extra) await q.exec(`DROP SCHEMA ${name} CASCADE`);
  await truncateAll(q);
  await q.exec(`DELETE FROM pg_statistic WHERE starelid >= ${USER}; DELETE FROM pg_statistic_ext_data`);
  await q.query(
    `UPDATE pg_class c SET relpages = b.relpages, reltuples = b.reltuples, relallvisible = b.relallvisible
       FROM json_to_recordset($1::json) AS b(oid oid, relpages int, reltuples real, relallvisible int)
      WHERE c.oid = b.oid AND (c.relpages, c.reltuples, c.relallvisible) IS DISTINCT FROM (b.relpages, b.reltuples, b.relallvisible)`,
    [sizes],
  );
}

/** Everything a test file could change that TRUNCATE does not undo, as one hash (objects of the system excluded). */
async function fingerprint(q: Queryable): Promise<string> {
  const [{ hash }] = await q.query<{ hash: string }>(FINGERPRINT_SQL);
  return hash;
}

const USER = "16384"; // FirstNormalObjectId: objects created after initdb
const FINGERPRINT_SQL = `SELECT md5(string_agg(item, E'\\n' ORDER BY item)) AS hash FROM (
  SELECT 'schema ' || nspname FROM pg_namespace WHERE nspname !~ '^pg_(toast_)?temp_'
  UNION ALL SELECT format('relation %s %s %s %s %s', c.oid::regclass, c.relkind, c.relpages, c.reltuples, c.relallvisible)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.oid >= ${USER} AND n.nspname !~ '^pg_(toast_)?temp_' AND n.nspname <> 'pg_toast'
  UNION ALL SELECT format('column %s %s %s %s %s %s', attrelid::regclass, attnum, attname, atttypid::regtype, attnotnull, attisdropped)
    FROM pg_attribute WHERE attrelid >= ${USER} AND attnum > 0
  UNION ALL SELECT format('default %s %s %s', adrelid::regclass, adnum, pg_get_expr(adbin, adrelid)) FROM pg_attrdef
  UNION ALL SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) FROM pg_constraint WHERE oid >= ${USER}
  UNION ALL SELECT 'index ' || pg_get_indexdef(indexrelid) FROM pg_index WHERE indexrelid >= ${USER}
  UNION ALL SELECT format('function %s %s', oid::regprocedure, md5(prosrc)) FROM pg_proc WHERE oid >= ${USER}
  UNION ALL SELECT format('trigger %s %s %s', tgrelid::regclass, tgname, tgenabled) FROM pg_trigger WHERE oid >= ${USER}
  UNION ALL SELECT 'type ' || oid::regtype FROM pg_type WHERE oid >= ${USER}
  UNION ALL SELECT format('rule %s %s', ev_class::regclass, md5(pg_get_ruledef(oid))) FROM pg_rewrite WHERE oid >= ${USER}
  UNION ALL SELECT format('policy %s %s', polrelid::regclass, polname) FROM pg_policy
  UNION ALL SELECT format('extension %s %s', extname, extversion) FROM pg_extension
  UNION ALL SELECT format('role %s %s %s', rolname, rolsuper, rolcanlogin) FROM pg_roles
  UNION ALL SELECT format('setting %s %s %s', setdatabase, setrole, setconfig) FROM pg_db_role_setting
  UNION ALL SELECT format('file setting %s %s', name, setting) FROM pg_file_settings
  UNION ALL SELECT format('sequence %s.%s %s', schemaname, sequencename, last_value) FROM pg_sequences
  UNION ALL SELECT format('statistics %s', count(*)) FROM pg_statistic WHERE starelid >= ${USER}
  UNION ALL SELECT format('statistics objects %s', count(*)) FROM pg_statistic_ext
  UNION ALL SELECT format('large objects %s', count(*)) FROM pg_largeobject_metadata
  UNION ALL SELECT format('migrations %s', md5(coalesce(string_agg(m::text, ',' ORDER BY m.id), ''))) FROM _prisma_migrations m
) items(item)`;
