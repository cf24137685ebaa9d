/**
 * The demo enrichment of ONE contact, for the unlock job of a contact whose enrichment has not completed,
 * until the real enrichment pipeline lands: it marks the enrichment completed now. It invents nothing:
 * a demo contact already carries its fictional email and profile, and a contact from a real source keeps
 * whatever that source found.
 */
import type { Db } from "../../db/client";

export async function enrichDemoContact(db: Db, id: string): Promise<boolean> {
  const now = new Date();
  const { count } = await db.prisma.contact.updateMany({
    where: { id },
    data: { enrichment_status: "completed", enriched_at: now, enrichment_error: null, last_updated_at: now },
  });
  return count === 1;
}
