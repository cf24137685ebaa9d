/**
 * From an article's text to its signals (type, buying intent, summary, date, evidence, payload) and the
 * districts and schools they are about. Replaces the article's earlier signals and sets its analyzed_at.
 */
import type { Db } from "../../../../db/client";

export async function analyzeArticle(_db: Db, _articleId: string): Promise<{ signals: number }> {
  throw new Error("analyzeArticle is being built (issue 22)");
}
