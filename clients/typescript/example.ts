/**
 * The typed client in use: the five largest districts of a state, one district in full, and the
 * organization's credits. Run against a server:
 *
 *   EDMARKET_URL=http://localhost:3000 EDMARKET_API_KEY=sk_live_... node scripts/run-ts.js clients/typescript/example.ts [STATE]
 */
import { createEdmarketClient } from "./index";

async function main(): Promise<void> {
  const baseUrl = process.env.EDMARKET_URL ?? "http://localhost:3000";
  const apiKey = process.env.EDMARKET_API_KEY;
  if (!apiKey) throw new Error("set EDMARKET_API_KEY to an API key (sk_live_...)");
  const state = process.argv[2];
  const client = createEdmarketClient({ baseUrl, apiKey });

  // Query parameters, their enums and the response are typed from the OpenAPI document.
  const list = await client.GET("/districts", {
    params: { query: { ...(state ? { state } : {}), order_by: "student_count", order_ascending: false, limit: 5 } },
  });
  if (list.error) throw new Error(`GET /districts: ${list.error.statusCode} ${list.error.message}`);
  console.log(`${list.data.pagination.total} districts${state ? ` in ${state}` : ""}; the largest:`);
  for (const district of list.data.data) console.log(`- ${district.name} (${district.state}): ${district.student_count ?? "?"} students`);

  const first = list.data.data[0];
  if (first) {
    const detail = await client.GET("/districts/{id}", { params: { path: { id: first.id } } });
    if (detail.error) throw new Error(`GET /districts/{id}: ${detail.error.statusCode} ${detail.error.message}`);
    const district = detail.data.data;
    console.log(`detail: ${district.name}, NCES ${district.fed_id ?? "?"}, unlocked: ${district._access?.is_unlocked ?? false}`);
  }

  const org = await client.GET("/org");
  if (org.error) throw new Error(`GET /org: ${org.error.statusCode} ${org.error.message}`);
  console.log(`organization ${org.data.name} (${org.data.plan}): ${org.data.credits.available} credits available`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
