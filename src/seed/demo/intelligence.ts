/**
 * Demo extracted intelligence (contract section 4): vendors in use, pain points, funding, contracts and
 * bids for each completed district and school. Categories rotate through the contract's lists so every
 * value occurs; contract expiries and bid deadlines are placed around the reference day on purpose.
 */
import type { DemoRow } from "./bulk";
import {
  BID_TITLES,
  DEMO_HOST,
  DEMO_SOURCE,
  DEMO_VENDORS,
  FUNDING_SOURCES,
  FUNDING_TEXT,
  PAIN_POINT_CATEGORIES,
  PAIN_POINT_TEXT,
  VENDOR_CATEGORIES,
  type VendorCategory,
} from "./catalog";
import { type DemoEntity, entityColumns, Rotation, seededAt } from "./model";
import { dateOffset, DemoRandom, demoUuid, referenceYear, round, slugify, timestampOffset } from "./random";

export interface IntelligenceRows {
  vendors: DemoRow[];
  entity_vendors: DemoRow[];
  pain_points: DemoRow[];
  funding: DemoRow[];
  contracts: DemoRow[];
  bids: DemoRow[];
  /** Vendor names per entity id, for the demo summaries. */
  vendorNamesByEntity: Map<string, string[]>;
}

/** "Expiring" contracts end 30-179 days after the reference (seeding) day, i.e. within six months; the others 240-1,100 days out. */
const EXPIRING_WINDOW_DAYS: readonly [number, number] = [30, 179];
const LATER_EXPIRY_DAYS: readonly [number, number] = [240, 1100];

export function buildIntelligence(seed: number, entities: readonly DemoEntity[]): IntelligenceRows {
  const vendors = DEMO_VENDORS.map((vendor) => ({
    id: demoUuid(seed, `vendor/${vendor.name}`),
    name: vendor.name,
    category: vendor.category,
    data_source: DEMO_SOURCE,
    created_at: seededAt(),
  }));
  const rows: IntelligenceRows = {
    vendors,
    entity_vendors: [],
    pain_points: [],
    funding: [],
    contracts: [],
    bids: [],
    vendorNamesByEntity: new Map(),
  };
  const contractRotation = new Rotation();
  const bidRotation = new Rotation();

  for (const entity of entities) {
    const rng = new DemoRandom(seed, `intelligence/${entity.kind}/${entity.fed_id}`);
    const isDistrict = entity.kind === "district";
    const key = `${entity.kind}/${entity.fed_id}`;
    const owner = entityColumns(entity);

    // Vendors in use: consecutive categories from a per-entity offset, one of the two vendors of each.
    const vendorCount = isDistrict ? rng.int(3, 4) : rng.int(1, 2);
    const categories = Array.from(
      { length: vendorCount },
      (_, k) => VENDOR_CATEGORIES[(entity.index * 3 + k) % VENDOR_CATEGORIES.length] as VendorCategory,
    );
    const chosen = categories.map((category) => rng.pick(vendors.filter((vendor) => vendor.category === category)));
    rows.vendorNamesByEntity.set(
      entity.id,
      chosen.map((vendor) => vendor.name),
    );
    chosen.forEach((vendor, k) => {
      rows.entity_vendors.push({
        id: demoUuid(seed, `entity-vendor/${key}/${k}`),
        ...owner,
        vendor_id: vendor.id,
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    });

    const contractCount = isDistrict ? Math.min(chosen.length, rng.int(2, 3)) : rng.chance(0.5) ? 1 : 0;
    chosen.slice(0, contractCount).forEach((vendor, k) => {
      const expiring = contractRotation.next() % 3 === 0;
      const [minDays, maxDays] = expiring ? EXPIRING_WINDOW_DAYS : LATER_EXPIRY_DAYS;
      const scale = isDistrict ? Math.max(1, (entity.size_hint ?? 5000) / 5000) : 0.2;
      rows.contracts.push({
        id: demoUuid(seed, `contract/${key}/${k}`),
        ...owner,
        vendor_id: vendor.id,
        category: vendor.category,
        amount: round(rng.int(20, 400) * 1000 * Math.min(scale, 20), 0),
        starts_on: dateOffset(-rng.int(60, 1000)),
        expires_on: dateOffset(rng.int(minDays, maxDays)),
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    });

    const painCount = isDistrict ? rng.int(2, 3) : 1;
    for (let k = 0; k < painCount; k += 1) {
      const category = PAIN_POINT_CATEGORIES[
        (entity.index * 2 + k) % PAIN_POINT_CATEGORIES.length
      ] as (typeof PAIN_POINT_CATEGORIES)[number];
      rows.pain_points.push({
        id: demoUuid(seed, `pain-point/${key}/${k}`),
        ...owner,
        category,
        description: `Demo (generated): ${rng.pick(PAIN_POINT_TEXT[category])}`,
        source_url: `${DEMO_HOST}/documents/${entity.fed_id}/board-packet-${k + 1}.pdf`,
        detected_at: timestampOffset(-rng.int(10, 300) - rng.float(0, 0.9)),
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    }

    const fundingCount = isDistrict ? rng.int(2, 3) : 1;
    for (let k = 0; k < fundingCount; k += 1) {
      const source = FUNDING_SOURCES[(entity.index * 2 + k) % FUNDING_SOURCES.length] as (typeof FUNDING_SOURCES)[number];
      const { text, min, max } = FUNDING_TEXT[source];
      const amount = rng.int(min, max) * (isDistrict ? 1 : 0.1);
      rows.funding.push({
        id: demoUuid(seed, `funding/${key}/${k}`),
        ...owner,
        source,
        amount: round(amount, -3),
        // Relative to the reference year (2026: ESSER 2023-2025, others 2025-2027).
        fiscal_year:
          source === "esser" ? rng.int(referenceYear() - 3, referenceYear() - 1) : rng.int(referenceYear() - 1, referenceYear() + 1),
        description: `Demo (generated): ${text}`,
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    }

    const bidCount = isDistrict ? rng.int(1, 2) : rng.chance(0.3) ? 1 : 0;
    for (let k = 0; k < bidCount; k += 1) {
      const open = bidRotation.next() % 2 === 0;
      const category = categories[k % categories.length] as VendorCategory;
      // Open bids close 35-150 days after the reference (seeding) day, closed ones 30-420 days before it.
      const deadlineDays = open ? rng.int(35, 150) : -rng.int(30, 420);
      const postedDays = open ? -rng.int(3, 30) : deadlineDays - rng.int(21, 45);
      const title = `Demo RFP: ${BID_TITLES[category]}`;
      rows.bids.push({
        id: demoUuid(seed, `bid/${key}/${k}`),
        ...owner,
        title,
        status: open ? "open" : "closed",
        posted_on: dateOffset(postedDays),
        deadline_at: timestampOffset(deadlineDays + 17 / 24),
        url: `${DEMO_HOST}/bids/${entity.fed_id}/${slugify(title)}`,
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    }
  }
  return rows;
}
