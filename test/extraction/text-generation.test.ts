/**
 * Text generation: the extractive default says what it is and quotes only its sources; the
 * OpenAI-compatible provider sends the facts and sources to `/chat/completions` of a local fake API; the
 * pipeline uses the configured provider and falls back to the extractive one when it fails.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadEnv } from "../../src/config/env";
import { runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { EXTRACTIVE_PREFIX, ExtractiveTextGenerator } from "../../src/features/research/text-generation/extractive.provider";
import { OpenAiCompatibleTextGenerator } from "../../src/features/research/text-generation/openai.provider";
import { textGeneratorFromEnv } from "../../src/features/research/text-generation/text-generation";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";
import { EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "./support/fixture-server";

interface FakeApi {
  url: string;
  bodies: Record<string, any>[];
  headers: http.IncomingHttpHeaders[];
  status: number;
  close(): Promise<void>;
}

async function fakeChatApi(): Promise<FakeApi> {
  const api: FakeApi = { url: "", bodies: [], headers: [], status: 200, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      api.bodies.push({ path: req.url, ...JSON.parse(raw) });
      api.headers.push(req.headers);
      if (api.status !== 200) {
        res.writeHead(api.status).end("{}");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ model: "fake-model-1", choices: [{ message: { role: "assistant", content: "  A generated summary.  " } }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

describe("text generation", () => {
  let api: FakeApi;
  let db: TestDb;
  let site: FixtureSite;
  beforeAll(async () => {
    api = await fakeChatApi();
    db = await createTestDb();
    site = await serveFixtureSite("maple-grove");
  });
  afterAll(async () => {
    await api?.close();
    await site?.close();
    await db?.close();
  });

  it("the extractive provider quotes only sentences of its sources and says no model was used", async () => {
    const out = await new ExtractiveTextGenerator().generate({
      task: "entity_summary",
      subject: "Maple Grove Elementary, NE (school)",
      subjectTerms: ["Maple", "Grove"],
      facts: ["6 staff contacts listed"],
      sources: [
        {
          url: "https://example.test/",
          title: "Home",
          text: "Menu\nMaple Grove Elementary serves 410 students in kindergarten through fifth grade.\nCall (402) 555-0150 for the office today please.",
        },
      ],
      maxWords: 60,
    });
    expect(out).toEqual({
      text: `${EXTRACTIVE_PREFIX}Maple Grove Elementary serves 410 students in kindergarten through fifth grade. Extracted: 6 staff contacts listed.`,
      provider: "extractive",
      model: null,
      sourceUrls: ["https://example.test/"],
    });
  });

  it("is the default; TEXT_GENERATION_BASE_URL selects the OpenAI-compatible provider", () => {
    expect(textGeneratorFromEnv(loadEnv({})).name).toBe("extractive");
    expect(textGeneratorFromEnv(loadEnv({ TEXT_GENERATION_BASE_URL: api.url })).name).toBe("openai-compatible");
  });

  it("the OpenAI-compatible provider posts facts and sources to /chat/completions with the key", async () => {
    const provider = new OpenAiCompatibleTextGenerator({ baseUrl: `${api.url}/`, apiKey: "sk-test", model: "m-small", timeoutMs: 5_000 });
    const out = await provider.generate({
      task: "outreach_email",
      subject: "Cedar Ridge Public Schools, NE (school district)",
      facts: ["open bids: RFP 2026-14"],
      sources: [{ url: "https://example.test/bids", title: "Bids", text: "RFP 2026-14 is open." }],
      maxWords: 100,
    });
    expect(out).toEqual({
      text: "A generated summary.",
      provider: "openai-compatible",
      model: "fake-model-1",
      sourceUrls: ["https://example.test/bids"],
    });
    const body = api.bodies.at(-1)!;
    expect(body).toMatchObject({ path: "/v1/chat/completions", model: "m-small", max_tokens: 200 });
    expect(body.messages[0].content).toContain("outreach e-mail");
    expect(body.messages[1].content).toContain("- open bids: RFP 2026-14");
    expect(body.messages[1].content).toContain("[1] Bids (https://example.test/bids)\nRFP 2026-14 is open.");
    expect(api.headers.at(-1)!.authorization).toBe("Bearer sk-test");
  });

  it("the pipeline writes the configured provider's summary, and falls back to the extractive one when it fails", async () => {
    const env = loadEnv({
      LOG_LEVEL: "silent",
      ...EXTRACTION_TEST_ENV,
      TEXT_GENERATION_BASE_URL: api.url,
      TEXT_GENERATION_MODEL: "m-large",
    });
    const id = await insertDistrict(db, { name: "Maple Grove Elementary", state: "NE", website_url: `${site.origin}/` });
    const ok = await runExtractionPipeline(db, "district", id, { env });
    expect(ok).toMatchObject({ status: "completed", text_provider: "openai-compatible", errors: [] });
    expect(await db.query(`SELECT ai_summary FROM districts WHERE id = $1`, [id])).toEqual([{ ai_summary: "A generated summary." }]);
    expect(api.bodies.at(-1)!.messages[1].content).toContain("ParentSquare");

    api.status = 503;
    const fallback = await runExtractionPipeline(db, "district", id, { env });
    api.status = 200;
    expect(fallback).toMatchObject({ status: "completed", text_provider: "extractive" });
    expect(fallback.errors).toEqual([{ url: api.url, kind: "text_generation", message: `text generation: HTTP 503 from ${api.url}` }]);
    const [row] = await db.query<{ ai_summary: string }>(`SELECT ai_summary FROM districts WHERE id = $1`, [id]);
    expect(row.ai_summary.startsWith(EXTRACTIVE_PREFIX)).toBe(true);
  });
});
