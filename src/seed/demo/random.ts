/**
 * Determinism for the demo layer: a seeded PRNG per entity, name-based UUIDs and dates counted from
 * one reference day (the seeding day, UTC), so the same seed over the same catalogue on the same
 * reference day writes byte-identical rows on any database and on every run. Nothing here reads the
 * clock or Math.random(): the caller names the day (`withReferenceDay`).
 */
import crypto from "node:crypto";

const DAY_MS = 86_400_000;
/** Outside `withReferenceDay` the day the demo layer was first written for (kept for pure helpers' tests). */
export const DEFAULT_REFERENCE_DAY = "2026-11-01";
let referenceMs = Date.parse(`${DEFAULT_REFERENCE_DAY}T00:00:00.000Z`);

/** `YYYY-MM-DD` of a moment's UTC day. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Runs a synchronous build with every demo date counted from `day` (`YYYY-MM-DD`, UTC midnight) and
 * restores the previous day afterwards. Synchronous on purpose: no other build can interleave with it.
 */
export function withReferenceDay<T>(day: string, build: () => T): T {
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
    Number.isNaN(Date.parse(`${day}T00:00:00.000Z`)) ||
    utcDay(new Date(`${day}T00:00:00.000Z`)) !== day
  )
    throw new TypeError(`demo reference day must be YYYY-MM-DD, got "${day}"`);
  const previous = referenceMs;
  referenceMs = Date.parse(`${day}T00:00:00.000Z`);
  try {
    const result = build();
    if (result && typeof (result as { then?: unknown }).then === "function")
      throw new TypeError("withReferenceDay: the build must be synchronous");
    return result;
  } finally {
    referenceMs = previous;
  }
}

/** The reference day in effect (`YYYY-MM-DD`). */
export const referenceDay = (): string => new Date(referenceMs).toISOString().slice(0, 10);
export const referenceYear = (): number => new Date(referenceMs).getUTCFullYear();

/** mulberry32: tiny, fast, good enough for demo content, and identical on every platform. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit hash of a string (first four bytes of its SHA-1). */
export function hash32(text: string): number {
  return crypto.createHash("sha1").update(text).digest().readUInt32BE(0);
}

/**
 * A random stream keyed by (seed, key): an entity's demo content depends only on its own key, so adding
 * districts to the catalogue never reshuffles what the existing ones got.
 */
export class DemoRandom {
  private readonly next: () => number;

  constructor(seed: number, key: string) {
    this.next = mulberry32(hash32(`${seed}:${key}`));
  }

  float(min = 0, max = 1): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("DemoRandom.pick: empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` distinct items in a seeded order (Fisher-Yates on a copy). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, Math.min(count, copy.length));
  }
}

const DEMO_NAMESPACE = "6f1c2d7e-5b0a-4c3e-9a51-3d7e0c1b2a90";

/** RFC 4122 version-5 UUID of `name` in the demo namespace: the same demo row gets the same id forever. */
export function demoUuid(seed: number, name: string): string {
  const namespace = Buffer.from(DEMO_NAMESPACE.replace(/-/g, ""), "hex");
  const bytes = crypto.createHash("sha1").update(namespace).update(`${seed}/${name}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `YYYY-MM-DD`, `days` after the reference day (negative: before). */
export function dateOffset(days: number): string {
  return new Date(referenceMs + days * DAY_MS).toISOString().slice(0, 10);
}

/** ISO 8601 UTC timestamp with milliseconds, `days` (may be fractional) after the reference day. */
export function timestampOffset(days: number): string {
  return new Date(referenceMs + Math.round(days * DAY_MS)).toISOString();
}

/** Whole days from the reference day to `YYYY-MM-DD` (negative: before it). */
export function daysFromReference(date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00.000Z`) - referenceMs) / DAY_MS);
}

/** Rounds to `decimals` places; negative `decimals` rounds to tens, hundreds, thousands... */
export const round = (value: number, decimals: number): number => {
  if (decimals < 0) {
    const step = 10 ** -decimals;
    return Math.round(value / step) * step;
  }
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** Lower-case, hyphen-separated slug for demo URLs. */
export const slugify = (text: string): string =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);

/** Lower-cases the first letter only, so acronyms inside a phrase (ESSER, STEM) survive. */
export const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);
