/** The entity an extraction runs for, read by key (kept apart from the pipeline so the job can decide cheaply). */
import type { Db } from "../../../db/client";
import type { ExtractionSubject } from "./extractors/types";

export interface EntityRow {
  subject: ExtractionSubject;
  websiteUrl: string | null;
  parentDistrictId: string | null;
  /** `completed`: it serves an earlier extraction (a new run leaves it alone until it stores). */
  status: string;
}

export async function readEntity(db: Db, kind: "district" | "school", id: string): Promise<EntityRow | null> {
  if (kind === "district") {
    const row = await db.prisma.district.findUnique({
      where: { id },
      select: { id: true, name: true, state: true, website_url: true, status: true },
    });
    return (
      row && {
        subject: { kind, id, name: row.name, state: row.state },
        websiteUrl: row.website_url,
        parentDistrictId: null,
        status: row.status,
      }
    );
  }
  const row = await db.prisma.school.findUnique({
    where: { id },
    select: { id: true, name: true, state: true, website_url: true, district_id: true, status: true },
  });
  return (
    row && {
      subject: { kind, id, name: row.name, state: row.state },
      websiteUrl: row.website_url,
      parentDistrictId: row.district_id,
      status: row.status,
    }
  );
}
