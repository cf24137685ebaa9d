/**
 * Issue 22, the OpenAI-compatible signal provider against a local fake server (node http): a valid answer is used
 * (type and intent from the model, only evidence found verbatim in the article kept, with its offsets; summary,
 * date and payload from that evidence), while an answer that is not JSON, an unknown type and an HTTP 500 each
 * fall back to the offline rules. Also signalExtractorFromEnv: the rules unless TEXT_GENERATION_BASE_URL is set.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAiSignalExtractor, RulesSignalExtractor, signalExtractorFromEnv } from "../../src/features/research/news/analysis";
import { documentOf } from "../../src/features/research/news/analysis/types";

const ARTICLE = {
  title: "Board approves 8,500 Chromebooks for students",
  text: "The Ulysses school board voted 5-2 on May 7 to buy the devices for $2.7 million. Delivery starts in August.",
  url: "https://news.example.com/chromebooks",
  domain: "news.example.com",
  published_at: new Date("2024-05-10T12:00:00Z"),
};
const VERBATIM = "The Ulysses school board voted 5-2 on May 7 to buy the devices for $2.7 million.";

type Reply = { status: number; body: string };
const chat = (content: string): Reply => ({
  status: 200,
  body: JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }),
});

describe("OpenAI-compatible signal provider (local fake server)", () => {
  let server: http.Server;
  let baseUrl: string;
  let reply: Reply;
  const requests: { url: string; auth: string | undefined; body: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c: Buffer) => (data += c.toString()));
      req.on("end", () => {
        requests.push({ url: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(data) as Record<string, unknown> });
        res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const extractor = () => new OpenAiSignalExtractor({ baseUrl, apiKey: "sk-test", model: "test-model", timeoutMs: 5000 });
  const rules = () => new RulesSignalExtractor().extract(ARTICLE);

  it("a valid answer is used: the model's type and intent, only verbatim evidence kept with offsets", async () => {
    reply = chat(
      JSON.stringify({
        signals: [
          {
            // The rules say technology_initiative; a model answer of curriculum_adoption shows the model was used.
            signal_type: "curriculum_adoption",
            buying_intent: "medium",
            buying_intent_reason: "devices for a new program",
            evidence: [VERBATIM, "The district will also hire 40 new teachers next year."],
          },
        ],
      }),
    );
    requests.length = 0;
    const [s, ...rest] = await extractor().extract(ARTICLE);
    expect(rest).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ url: "/v1/chat/completions", auth: "Bearer sk-test", body: { model: "test-model" } });
    expect(s).toMatchObject({
      signal_type: "curriculum_adoption",
      buying_intent: "medium",
      buying_intent_reason: "devices for a new program",
    });
    // The invented sentence is dropped; the verbatim one is kept where it is in title + "\n\n" + text.
    expect(s.evidence.map((e) => e.text)).toEqual([VERBATIM]);
    const doc = documentOf(ARTICLE);
    expect(doc.slice(s.evidence[0].start, s.evidence[0].end)).toBe(VERBATIM);
    expect(s.summary).toBe(VERBATIM);
    // Date and payload come from the kept evidence only (no "40 new teachers").
    expect(s.signal_date).toBe("2024-05-07");
    expect(s.payload).toEqual({
      amounts: [{ text: "$2.7 million", value: 2_700_000 }],
      dates: [{ text: "May 7", date: "2024-05-07" }],
    });
  });

  it("an answer that is not JSON falls back to the rules", async () => {
    reply = chat("Sure! The article is about Chromebooks, a technology initiative.");
    const got = await extractor().extract(ARTICLE);
    expect(got).toEqual(await rules());
    expect(got[0].signal_type).toBe("technology_initiative");
  });

  it("an unknown signal type falls back to the rules", async () => {
    reply = chat(JSON.stringify({ signals: [{ signal_type: "device_purchase", buying_intent: "high", evidence: [VERBATIM] }] }));
    expect(await extractor().extract(ARTICLE)).toEqual(await rules());
  });

  it("an HTTP 500 falls back to the rules", async () => {
    reply = { status: 500, body: JSON.stringify({ error: { message: "overloaded" } }) };
    requests.length = 0;
    expect(await extractor().extract(ARTICLE)).toEqual(await rules());
    expect(requests).toHaveLength(1);
  });

  it("signalExtractorFromEnv: the rules without TEXT_GENERATION_BASE_URL, the model with it", () => {
    const env = { TEXT_GENERATION_API_KEY: undefined, TEXT_GENERATION_MODEL: "m", TEXT_GENERATION_TIMEOUT_MS: 1000 };
    expect(signalExtractorFromEnv({ ...env, TEXT_GENERATION_BASE_URL: undefined }).name).toBe(new RulesSignalExtractor().name);
    expect(signalExtractorFromEnv({ ...env, TEXT_GENERATION_BASE_URL: baseUrl }).name).toBe("openai-compatible");
  });
});
