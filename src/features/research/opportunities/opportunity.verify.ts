/**
 * Verification of one opportunity (spec "Opportunity verification"; docs/opportunities.md). A run re-checks each
 * source and records a source check per source (url, checked_at, status, note):
 *
 * - `ok`: reachable and still saying it (the claim's sentence is on the page: the same words, case, spacing and
 *   punctuation aside, or at least CLAIM_COVERAGE of its words in one passage); for a reason drawn from the catalogue
 *   (enrollment growth, a change in revenue per student, the organization's unlock), the catalogue still shows it;
 * - `changed`: reachable, but the claim is no longer there (or the catalogue no longer shows it);
 * - `gone`: the source answers 404 or 410;
 * - `unreachable`: no answer, a timeout, another HTTP error, robots.txt refusing us, a refused address.
 *
 * Pages are fetched by the news ingest's fetcher: the crawler's HTTP client with its rules (robots.txt, the
 * private-address guard, size caps, timeouts). The verdict: `confirmed` when at least one source still states the
 * claim, else `unreachable` (the claim could not be settled: it means unconfirmed). window_status is decided from
 * the row's dates and the clock (opportunity.window.ts), independently.
 */
import { isoDay, now } from "../../../config/clock";
import type { Env } from "../../../config/env";
import type { Db } from "../../../db/client";
import { emitEvent } from "../../account/webhooks/webhook.outbox";
import { decodeHtml } from "../extraction/html";
import { extractMainText } from "../news/ingest/main-text";
import { NewsFetcher, type NewsFetcherOptions } from "../news/ingest/fetcher";
import { GROWTH_MIN, REVENUE_CHANGE_MIN } from "./opportunity.agent";
import { windowStatus } from "./opportunity.window";

export type SourceStatus = "ok" | "changed" | "gone" | "unreachable";

export interface SourceCheck {
  url: string;
  status: SourceStatus;
  note: string;
}

/** Share of a claim's words that must stand in one passage of the page for an edited sentence to still count. */
export const CLAIM_COVERAGE = 0.85;

interface Claim {
  kind: string;
  texts?: { url: string; text: string }[];
  bid_id?: string;
  from_year?: number;
  to_year?: number;
}

const words = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u201c\u201d]/g, "'")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Whether `page` still says `claim`: the same words in order, or CLAIM_COVERAGE of them within a passage of its length. */
export function statesClaim(page: string, claim: string): boolean {
  const want = words(claim);
  if (!want.length) return false;
  const have = words(page);
  const joined = ` ${have.join(" ")} `;
  if (joined.includes(` ${want.join(" ")} `)) return true;
  const needed = new Map<string, number>();
  for (const w of want) needed.set(w, (needed.get(w) ?? 0) + 1);
  // Slide a window of the claim's length (plus a little slack for inserted words) over the page.
  const span = Math.ceil(want.length * 1.3);
  for (let start = 0; start < have.length; start += Math.max(1, Math.floor(want.length / 4))) {
    const window = new Map<string, number>();
    for (const w of have.slice(start, start + span)) window.set(w, (window.get(w) ?? 0) + 1);
    let found = 0;
    for (const [w, n] of needed) found += Math.min(n, window.get(w) ?? 0);
    if (found / want.length >= CLAIM_COVERAGE) return true;
  }
  return false;
}

/** One page's check against the sentences it must still hold (none: reachable is all that can be checked). */
async function checkPage(fetcher: NewsFetcher, url: string, claims: readonly string[]): Promise<SourceCheck> {
  const page = await fetcher.page(url);
  if (!page.ok) {
    if (page.status === "http_404" || page.status === "http_410")
      return { url, status: "gone", note: `the source is gone (HTTP ${page.status.slice(5)})` };
    return { url, status: "unreachable", note: `could not be read: ${page.status} (${page.message.slice(0, 200)})` };
  }
  const html = decodeHtml(page.html, page.contentTypeHeader);
  const main = extractMainText(html);
  const text = `${main.title ?? ""}\n${main.text}`;
  if (!claims.length) return { url, status: "ok", note: "reachable (no quoted sentence to look for)" };
  const held = claims.filter((claim) => statesClaim(text, claim)).length;
  return held
    ? { url, status: "ok", note: `reachable and still saying it (${held} of ${claims.length} quoted sentences found)` }
    : { url, status: "changed", note: `reachable, but none of the ${claims.length} quoted sentences is on the page any more` };
}

interface Target {
  entity_type: string;
  district_id: string | null;
  school_id: string | null;
  organization_id: string;
  source_urls: string[];
  claim: Claim | null;
}

/** A reason drawn from the catalogue, re-read now. */
async function checkCatalogue(db: Db, row: Target, claim: Claim, today: string): Promise<SourceCheck> {
  const kind = row.entity_type === "school" ? "school" : "district";
  const id = (kind === "school" ? row.school_id : row.district_id)!;
  const url = row.source_urls[0] ?? `/api/v1/${kind}s/${id}`;
  const note = (holds: boolean, what: string): SourceCheck => ({
    url,
    status: holds ? "ok" : "changed",
    note: `${holds ? "the catalogue still shows" : "the catalogue no longer shows"} ${what} (re-read from the ingested files; the page was not fetched)`,
  });
  switch (claim.kind) {
    case "enrollment_growth": {
      const rows =
        kind === "district"
          ? await db.prisma.districtAnnualStat.findMany({
              where: { district_id: id, school_year_start: { in: [claim.from_year!, claim.to_year!] } },
              select: { school_year_start: true, total_enrollment: true },
            })
          : await db.prisma.schoolAnnualStat.findMany({
              where: { school_id: id, school_year_start: { in: [claim.from_year!, claim.to_year!] } },
              select: { school_year_start: true, total_enrollment: true },
            });
      const from = rows.find((r) => r.school_year_start === claim.from_year)?.total_enrollment;
      const to = rows.find((r) => r.school_year_start === claim.to_year)?.total_enrollment;
      return note(!!from && !!to && (to - from) / from >= GROWTH_MIN, `the enrollment growth from ${claim.from_year} to ${claim.to_year}`);
    }
    case "revenue_change": {
      const rows = await db.prisma.districtAnnualStat.findMany({
        where: { district_id: id, school_year_start: { in: [claim.from_year!, claim.to_year!] } },
        select: { school_year_start: true, total_revenue: true, total_enrollment: true },
      });
      const per = (year: number | undefined) => {
        const r = rows.find((x) => x.school_year_start === year);
        return r?.total_revenue && r.total_enrollment ? r.total_revenue / r.total_enrollment : null;
      };
      const from = per(claim.from_year);
      const to = per(claim.to_year);
      return note(
        from !== null && to !== null && Math.abs(to - from) / from >= REVENUE_CHANGE_MIN,
        `the change in revenue per student from ${claim.from_year} to ${claim.to_year}`,
      );
    }
    case "recent_unlock": {
      const unlock = await db.prisma.unlock.findFirst({
        where: { organization_id: row.organization_id, entity_type: kind, entity_id: id, state: "unlocked" },
        select: { id: true },
      });
      return note(!!unlock, "your organization's unlock");
    }
    case "open_bid": {
      const bid = claim.bid_id
        ? await db.prisma.bid.findUnique({ where: { id: claim.bid_id }, select: { status: true, deadline_at: true } })
        : null;
      const open = !!bid && bid.status === "open" && (!bid.deadline_at || isoDay(bid.deadline_at) >= today);
      return note(open, "the bid as open");
    }
    default:
      return { url, status: "unreachable", note: `no check is known for a ${claim.kind} reason` };
  }
}

/** Every source's check for a row. */
export async function checkSources(db: Db, env: Env, row: Target, fetcherOptions: NewsFetcherOptions = {}): Promise<SourceCheck[]> {
  const claim = row.claim ?? { kind: "signal", texts: [] };
  const today = isoDay(now());
  const checks: SourceCheck[] = [];
  // Pages are fetched for a signal's article and a bid's page only; a catalogue reason needs no fetcher.
  if ((claim.kind === "signal" || claim.kind === "open_bid") && row.source_urls.length) {
    const fetcher = await NewsFetcher.create(env, fetcherOptions);
    for (const url of row.source_urls) {
      const sentences = (claim.texts ?? []).filter((t) => t.url === url).map((t) => t.text);
      checks.push(await checkPage(fetcher, url, sentences));
    }
  }
  if (claim.kind !== "signal") checks.push(await checkCatalogue(db, row, claim, today));
  return checks;
}

/** The verdict and its note from the checks. */
export function verdictOf(checks: readonly SourceCheck[]): { verification_status: "confirmed" | "unreachable"; verification_note: string } {
  const count = (status: SourceStatus) => checks.filter((c) => c.status === status).length;
  const ok = count("ok");
  const parts = (["changed", "gone", "unreachable"] as const).filter((s) => count(s)).map((s) => `${count(s)} ${s}`);
  if (!checks.length) return { verification_status: "unreachable", verification_note: "no source to check: the claim cannot be settled" };
  return ok
    ? {
        verification_status: "confirmed",
        verification_note: `${ok} of ${checks.length} sources still state the claim${parts.length ? `; ${parts.join(", ")}` : ""}`,
      }
    : { verification_status: "unreachable", verification_note: `no source still states the claim: ${parts.join(", ")}` };
}

/**
 * The verification job's work: checks the sources of the opportunity the run `jobId` was started for and stores the
 * verdict, the window and the checks in one transaction. A run superseded by a later refresh stores nothing.
 */
export async function verifyOpportunity(
  db: Db,
  env: Env,
  opportunityId: string,
  jobId: string,
  fetcherOptions: NewsFetcherOptions = {},
): Promise<void> {
  const current = { id: opportunityId, verification_job_id: jobId, verification_status: "verifying" };
  const row = await db.prisma.opportunity.findFirst({
    where: current,
    select: {
      entity_type: true,
      district_id: true,
      school_id: true,
      organization_id: true,
      source_urls: true,
      claim: true,
      window_ends_on: true,
      window_durable: true,
    },
  });
  if (!row) return;
  const checks = await checkSources(db, env, { ...row, claim: row.claim as Claim | null }, fetcherOptions);
  const verdict = verdictOf(checks);
  const at = now();
  const window = windowStatus(
    { window_ends_on: row.window_ends_on ? isoDay(row.window_ends_on) : null, window_durable: row.window_durable },
    at,
  );
  const checkedAt = new Date();
  await db.prisma.$transaction(async (tx) => {
    const { count } = await tx.opportunity.updateMany({
      where: current,
      data: { ...verdict, window_status: window, last_verified_at: checkedAt, updated_at: checkedAt },
    });
    if (!count) return;
    await emitEvent(tx, "opportunity.verified", row.organization_id, {
      id: opportunityId,
      verification_status: verdict.verification_status,
      verification_note: verdict.verification_note,
      window_status: window,
      last_verified_at: checkedAt.toISOString(),
    });
    await tx.opportunitySourceCheck.deleteMany({ where: { opportunity_id: opportunityId } });
    await tx.opportunitySourceCheck.createMany({
      data: checks.map((c) => ({ opportunity_id: opportunityId, url: c.url, status: c.status, note: c.note, checked_at: checkedAt })),
    });
  });
}

/** After the last attempt failed: the run ends unreachable, saying why. */
export async function failVerification(db: Db, opportunityId: string, jobId: string, error: Error): Promise<void> {
  const at = new Date();
  await db.prisma.opportunity.updateMany({
    where: { id: opportunityId, verification_job_id: jobId, verification_status: "verifying" },
    data: {
      verification_status: "unreachable",
      verification_note: `the verification run failed: ${error.message}`.slice(0, 500),
      last_verified_at: at,
      updated_at: at,
    },
  });
}
