/**
 * One process at a time on an embedded data directory. PGlite has no lock of its own: two processes on
 * one directory both write (split brain) and leave it unopenable. The first process to open DATA_DIR
 * creates `<DATA_DIR>/edmarket.lock` atomically (O_EXCL) and removes it on close and on exit; a second
 * process refuses to start, naming the directory and the holder. A lock left by a process that no
 * longer runs (killed, crashed, power loss) is taken over.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { logger } from "../logger";
import { StartupError } from "../startup-error";

export const LOCK_FILE = "edmarket.lock";

/** What the lock file holds. `token` tells this process's lock from a later one with the same pid. */
export interface LockHolder {
  pid: number;
  hostname: string;
  started_at: string;
  command: string;
  token?: string;
  /**
   * Where the holder serves HTTP (`serve` writes it once it listens; docs/mcp.md): `edmarket mcp` on a
   * directory held by a running service talks to that service's /mcp instead of failing.
   */
  url?: string;
}

/** Another live process holds DATA_DIR. The CLI prints the message as its one error line. */
export class DataDirLockedError extends StartupError {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      "data_dir_locked",
      `DATA_DIR ${dataDir} is in use by process ${holder.pid} (${holder.command || "unknown command"}, started ${holder.started_at || "at an unknown time"}); stop it or set another DATA_DIR`,
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still this process's; safe to call twice. */
  release(): void;
}

/** Directories this process holds: a second open of one of them in the same process is refused too. */
const held = new Map<string, LockHolder>();

/** How long a takeover marker may stand before it is itself considered left behind. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Takes the lock on `dataDir` (created if missing), or throws DataDirLockedError when a live process
 * on this host holds it.
 */
export async function acquireDataDirLock(dataDir: string, command = describeCommand()): Promise<DataDirLock> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const mine = held.get(dir);
  if (mine) throw new DataDirLockedError(dir, mine);

  const holder: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    started_at: new Date().toISOString(),
    command,
    token: randomUUID(),
  };
  const content = `${JSON.stringify(holder)}\n`;

  for (let attempt = 0; ; attempt++) {
    if (attempt > 100) throw new Error(`could not take the lock ${file}; remove it if no edmarket process uses ${dir}`);
    if (tryCreate(file, content)) break;
    const current = readLock(file);
    if (current === "missing") continue; // removed between our attempt and the read: try again
    if (current === "garbage" && isFresh(file, 2_000)) {
      // Possibly created this instant by another process that has not written it yet.
      await sleep(100);
      continue;
    }
    if (current !== "garbage" && isAlive(current)) throw new DataDirLockedError(dir, current);
    // The holder is gone (or the file is unreadable): take over, one taker at a time.
    if (await takeOver(file, current, content)) break;
    await sleep(100);
  }
  // Belt and braces: the file on disk must now be ours.
  const check = readLock(file);
  if (typeof check !== "object" || check.token !== holder.token) {
    if (typeof check === "object") throw new DataDirLockedError(dir, check);
    throw new Error(`lost the lock ${file} while taking it`);
  }

  held.set(dir, holder);
  const onExit = () => removeIfOurs(file, holder.token!);
  process.on("exit", onExit);
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      process.removeListener("exit", onExit);
      held.delete(dir);
      removeIfOurs(file, holder.token!);
    },
  };
}

/**
 * Records in this process's lock on `dataDir` the URL it serves HTTP on. The file is replaced whole
 * (written beside it, then renamed), so a reader sees the old or the new holder, never half of one.
 * Does nothing when this process does not hold the directory.
 */
export function recordLockUrl(dataDir: string, url: string): void {
  const dir = path.resolve(dataDir);
  const holder = held.get(dir);
  if (!holder) return;
  const file = path.join(dir, LOCK_FILE);
  const current = readLock(file);
  if (typeof current !== "object" || current.token !== holder.token) return;
  holder.url = url;
  const next = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(next, `${JSON.stringify(holder)}\n`, { mode: 0o644 });
  fs.renameSync(next, file);
}

/** The live process holding `dataDir`, if any (a lock left by a dead process counts as none). */
export function dataDirHolder(dataDir: string): LockHolder | undefined {
  const current = readLock(path.join(path.resolve(dataDir), LOCK_FILE));
  return typeof current === "object" && isAlive(current) ? current : undefined;
}

function tryCreate(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function readLock(file: string): LockHolder | "missing" | "garbage" {
  let raw: string;
  try {
    raw = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    return "garbage";
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockHolder>;
    if (!parsed || typeof parsed !== "object" || !Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return "garbage";
    return {
      pid: parsed.pid as number,
      hostname: String(parsed.hostname ?? ""),
      started_at: String(parsed.started_at ?? ""),
      command: String(parsed.command ?? ""),
      token: typeof parsed.token === "string" ? parsed.token : undefined,
      url: typeof parsed.url === "string" ? parsed.url : undefined,
    };
  } catch {
    return "garbage";
  }
}

/** Whether the process that wrote the lock still runs. A lock from another host cannot be checked. */
function isAlive(holder: LockHolder): boolean {
  if (holder.hostname && holder.hostname !== os.hostname()) {
    logger.warn("taking over a data directory lock written on another host", { holder });
    return false;
  }
  // Our own pid in a lock this process does not hold: an earlier run that had the same pid (pid 1 in
  // a restarted container).
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Replaces a stale lock with ours. A marker file created with O_EXCL lets one taker at a time in, so two
 * processes that both saw the same stale lock cannot both remove "it" (the second would remove the
 * first taker's fresh lock). Returns false when another taker is busy or the lock changed meanwhile.
 */
async function takeOver(file: string, stale: LockHolder | "garbage", content: string): Promise<boolean> {
  const marker = `${file}.takeover`;
  if (!tryCreate(marker, `${process.pid}\n`)) {
    if (!isFresh(marker, TAKEOVER_STALE_MS)) fs.rmSync(marker, { force: true });
    return false;
  }
  try {
    const now = readLock(file);
    const unchanged =
      now === "missing" ||
      (now === "garbage"
        ? stale === "garbage"
        : typeof stale === "object" && now.token === stale.token && now.pid === stale.pid && now.started_at === stale.started_at);
    if (!unchanged) return false;
    if (typeof stale === "object") logger.warn("taking over a stale data directory lock", { file, holder: stale });
    else logger.warn("replacing an unreadable data directory lock", { file });
    fs.rmSync(file, { force: true });
    return tryCreate(file, content);
  } finally {
    fs.rmSync(marker, { force: true });
  }
}

function removeIfOurs(file: string, token: string): void {
  const current = readLock(file);
  if (typeof current === "object" && current.token === token) fs.rmSync(file, { force: true });
}

function isFresh(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

/** `edmarket serve`, `edmarket db migrate` ...: how the holder was started, for the refusal message. */
function describeCommand(): string {
  const script = path.basename(process.argv[1] ?? "node").replace(/\.[cm]?[jt]s$/, "");
  const name = script === "cli" || script === "edmarket" ? "edmarket" : script;
  return [name, ...process.argv.slice(2)].join(" ").slice(0, 200);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
