import type { Db } from "../../../src/db/client";
import { insert } from "../../support/factories";

let articleCounter = 0;
/** An article with its signals (small factory: the columns the ingest and the analysis write). */
export async function insertArticle(
  t: { db: Db },
  article: { title: string; published_at: string | null; ingested_at: string; id?: string },
  signals: Record<string, unknown>[],
): Promise<string> {
  articleCounter += 1;
  const id = await insert(t.db, "articles", {
    url: `https://news.example.org/story-${articleCounter}`,
    domain: "news.example.org",
    author: "A. Reporter",
    description: `Lead of ${article.title}`,
    data_source: "test",
    ...article,
  });
  for (const signal of signals) {
    await insert(t.db, "signals", {
      article_id: id,
      buying_intent: "low",
      buying_intent_reason: "A reason.",
      summary: "A summary.",
      signal_date: "2026-11-01",
      signal_date_confidence: 0.7,
      extraction_confidence: 0.9,
      evidence: { sentences: [{ text: "It happened.", start: 0, end: 12 }] },
      payload: { amount_usd: 1000 },
      entity_type: "district",
      entity_resolution_status: "resolved",
      entity_match_confidence: 0.95,
      entity_match_reason: "name and state",
      data_source: "test",
      ...signal,
    });
  }
  return id;
}
