/**
 * Registered feeds polled by the worker: the registry (add, list, remove), one poll as the `news.poll_feed` job
 * runs it (articles with origin "feed" and the feed's id, the feed's last poll recorded, a conditional GET the
 * second time), the scheduler (one job per feed and period, none for a feed polled recently), and the real
 * worker (pg-boss) polling a newly added feed.
 */
import { loadEnv, type Env } from "../../src/config/env";
import { startServiceJobs } from "../../src/compose-jobs";
import "../../src/graphql/features"; // installs the features whose jobs the worker works
import { addFeed, listFeeds, pollFeed, removeFeed } from "../../src/features/research/news/ingest/feeds.service";
import { pollFeedJob, pollJobId, scheduleFeedPolls, type PollSender } from "../../src/features/research/news/news.jobs";
import type { JobDefinition } from "../../src/jobs/job";
import { createTestDb, truncateAll, type TestDb } from "../support/db";
import { until } from "../support/wait";
import { NEWS_TEST_ENV, serveNewsSite, type NewsSite } from "./support/news-server";

describe("news feed polling", () => {
  let db: TestDb;
  let site: NewsSite;
  let env: Env;

  beforeAll(async () => {
    db = await createTestDb();
    site = await serveNewsSite();
    env = loadEnv({
      ...process.env,
      ...NEWS_TEST_ENV,
      EXTRACTION_ALLOW_PRIVATE_HOSTS: "false",
      NEWS_POLL_MINUTES: "60",
      WORKER_POLL_SECONDS: "0.5",
    });
    site.setPage("atom-one", [
      "Maple Grove Public Schools will add two new elementary schools as enrollment grows, the board said. ".repeat(3),
    ]);
  });
  afterAll(async () => {
    await site?.close();
    await db?.close();
  });
  beforeEach(() => truncateAll(db));

  it("adds (idempotently), lists and removes feeds by id or URL; a feed must be an http(s) URL", async () => {
    const first = await addFeed(db, `${site.origin}/feeds/atom.xml#x`);
    expect(first).toMatchObject({ added: true, feed: { url: `${site.origin}/feeds/atom.xml`, last_polled_at: null, last_status: null } });
    expect(await addFeed(db, `${site.origin}/feeds/atom.xml`)).toMatchObject({ added: false, feed: { id: first.feed.id } });
    await addFeed(db, `${site.origin}/feeds/rdf.xml`);
    expect((await listFeeds(db)).map((f) => f.url)).toEqual([`${site.origin}/feeds/atom.xml`, `${site.origin}/feeds/rdf.xml`]);
    expect(await removeFeed(db, first.feed.id)).toEqual({ removed: 1 });
    expect(await removeFeed(db, `${site.origin}/feeds/rdf.xml`)).toEqual({ removed: 1 });
    expect(await removeFeed(db, `${site.origin}/feeds/rdf.xml`)).toEqual({ removed: 0 });
    expect(await listFeeds(db)).toEqual([]);
    await expect(addFeed(db, "/etc/passwd")).rejects.toThrow(/http\(s\) URL/);
  });

  it("a poll job run stores the feed's articles and records the poll; the next poll is a conditional GET (304)", async () => {
    const { feed } = await addFeed(db, `${site.origin}/feeds/atom.xml`);
    await pollFeedJob.run({ db, env }, { feedId: feed.id }, { id: "t", retryCount: 0, retryLimit: 0 });
    const articles = await db.query<{ url: string; origin: string; feed_id: string; text_source: string }>(
      `SELECT url, origin, feed_id::text AS feed_id, text_source FROM articles ORDER BY url`,
    );
    expect(articles).toEqual([
      { url: `${site.origin}/gen/atom-one`, origin: "feed", feed_id: feed.id, text_source: "page" },
      { url: `${site.origin}/private/atom-two`, origin: "feed", feed_id: feed.id, text_source: "feed_item" },
    ]);
    const [polled] = await db.query<{
      last_status: string;
      last_item_count: number;
      etag: string | null;
      title: string;
      last_polled_at: Date | null;
    }>(`SELECT last_status, last_item_count, etag, title, last_polled_at FROM news_feeds WHERE id = $1`, [feed.id]);
    expect(polled).toMatchObject({ last_status: "ok", last_item_count: 2, title: "District news" });
    expect(polled!.etag).toMatch(/^".+"$/);
    expect(polled!.last_polled_at).not.toBeNull();

    const requests = site.requests.length;
    const again = await pollFeed(db, env, feed.id);
    expect(again).toMatchObject({ not_modified: true, items: 0 });
    expect(site.requests.slice(requests)).toEqual(["/feeds/atom.xml"]);
    const [after] = await db.query<{ last_status: string; last_item_count: number }>(
      `SELECT last_status, last_item_count FROM news_feeds WHERE id = $1`,
      [feed.id],
    );
    expect(after).toEqual({ last_status: "not_modified", last_item_count: 2 });
  });

  it("records a feed that cannot be fetched or parsed as an error, without throwing", async () => {
    const { feed: missing } = await addFeed(db, `${site.origin}/feeds/nope.xml`);
    expect(await pollFeed(db, env, missing.id)).toMatchObject({ error: expect.stringMatching(/HTTP 404/) });
    site.setFeed("html.xml", "<html><body>not a feed</body></html>");
    const { feed: html } = await addFeed(db, `${site.origin}/feeds/html.xml`);
    expect(await pollFeed(db, env, html.id)).toMatchObject({ error: expect.stringMatching(/not an RSS or Atom feed/) });
    const rows = await db.query<{ url: string; last_status: string; last_error: string }>(
      `SELECT url, last_status, last_error FROM news_feeds ORDER BY url`,
    );
    expect(rows.map((r) => r.last_status)).toEqual(["error", "error"]);
    expect(await pollFeed(db, env, "00000000-0000-4000-8000-000000000000")).toEqual({
      feed_id: "00000000-0000-4000-8000-000000000000",
      skipped: "unknown_feed",
    });
  });

  it("a feed being polled is not polled twice at once", async () => {
    const { feed } = await addFeed(db, `${site.origin}/feeds/atom.xml`);
    await db.query(`UPDATE news_feeds SET last_status = 'polling', last_polled_at = now() WHERE id = $1`, [feed.id]);
    expect(await pollFeed(db, env, feed.id)).toEqual({ feed_id: feed.id, skipped: "being_polled" });
    // A claim older than 15 minutes is a dead worker's: taken over.
    await db.query(`UPDATE news_feeds SET last_polled_at = now() - interval '16 minutes' WHERE id = $1`, [feed.id]);
    expect(await pollFeed(db, env, feed.id)).toMatchObject({ items: 2, new: 2 });
  });

  it("schedules one poll job per due feed and period, none for a feed polled within NEWS_POLL_MINUTES", async () => {
    const due = await addFeed(db, `${site.origin}/feeds/atom.xml`);
    const recent = await addFeed(db, `${site.origin}/feeds/rdf.xml`);
    await db.query(`UPDATE news_feeds SET last_polled_at = now() - interval '10 minutes', last_status = 'ok' WHERE id = $1`, [
      recent.feed.id,
    ]);
    const sent = new Map<string, unknown>();
    const queue: PollSender = {
      async sendNow<T>(job: JobDefinition<T>, data: T, id: string) {
        if (sent.has(id)) return null;
        expect(job.name).toBe("news.poll_feed");
        sent.set(id, data);
        return id;
      },
    };
    expect(await scheduleFeedPolls(db, queue, env)).toBe(1);
    expect([...sent.values()]).toEqual([{ feedId: due.feed.id }]);
    expect([...sent.keys()]).toEqual([pollJobId(due.feed.id, 60 * 60_000)]);
    // The same period: the same job id, not sent again.
    expect(await scheduleFeedPolls(db, queue, env)).toBe(0);
    expect(pollJobId(due.feed.id, 60_000, 0)).not.toBe(pollJobId(due.feed.id, 60_000, 60_000));
    await db.query(`UPDATE news_feeds SET last_polled_at = now() - interval '61 minutes' WHERE id = $1`, [recent.feed.id]);
    expect(await scheduleFeedPolls(db, queue, env)).toBe(1);
  });

  it("retries a failed feed after NEWS_RETRY_MINUTES, doubled per consecutive failure and at most the period; a poll that works resets it", async () => {
    await db.query(`DELETE FROM news_feeds`);
    site.setFeed("flaky.xml", "<html><body>down for maintenance</body></html>");
    const { feed } = await addFeed(db, `${site.origin}/feeds/flaky.xml`);
    const sent: string[] = [];
    const queue: PollSender = {
      async sendNow<T>(_job: JobDefinition<T>, _data: T, id: string) {
        if (sent.includes(id)) return null;
        sent.push(id);
        return id;
      },
    };
    const failures = async () => (await db.query<{ n: number }>(`SELECT failures AS n FROM news_feeds WHERE id = $1`, [feed.id]))[0]!.n;
    const polledAgo = (minutes: number) =>
      db.query(`UPDATE news_feeds SET last_polled_at = now() - make_interval(mins => $2) WHERE id = $1`, [feed.id, minutes]);
    const rt = { ...env, NEWS_POLL_MINUTES: 60, NEWS_RETRY_MINUTES: 5 };

    expect(await pollFeed(db, env, feed.id)).toMatchObject({ error: expect.stringMatching(/not an RSS or Atom feed/) });
    expect(await failures()).toBe(1);
    await polledAgo(4);
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(0);
    await polledAgo(6); // one failure: due after 5 minutes, as a job of its own (not the period's first)
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(1);
    expect(sent.at(-1)).toBe(pollJobId(feed.id, 60 * 60_000, Date.now(), 1));
    expect(sent.at(-1)).not.toBe(pollJobId(feed.id, 60 * 60_000, Date.now(), 0));

    await pollFeed(db, env, feed.id);
    expect(await failures()).toBe(2);
    await polledAgo(6); // two failures: 10 minutes
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(0);
    await polledAgo(11);
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(1);
    await db.query(`UPDATE news_feeds SET failures = 20 WHERE id = $1`, [feed.id]);
    await polledAgo(59); // never longer than the period
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(0);
    await polledAgo(61);
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(1);

    site.setFeed("flaky.xml", `<rss><channel><title>back</title></channel></rss>`);
    expect(await pollFeed(db, env, feed.id)).toMatchObject({ items: 0 });
    expect(await failures()).toBe(0);
    await polledAgo(6);
    expect(await scheduleFeedPolls(db, queue, rt)).toBe(0);
  });

  it("the worker polls a newly added feed by itself", async () => {
    const jobs = await startServiceJobs(db, env, { work: true });
    try {
      const { feed } = await addFeed(db, `${site.origin}/feeds/atom.xml`);
      const polled = await until(
        () => db.query<{ last_status: string | null }>(`SELECT last_status FROM news_feeds WHERE id = $1`, [feed.id]),
        (rows) => rows[0]?.last_status === "ok",
        30_000,
      );
      expect(polled[0]?.last_status).toBe("ok");
      const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM articles WHERE feed_id = $1 AND origin = 'feed'`, [
        feed.id,
      ]);
      expect(count!.n).toBe(2);
    } finally {
      await jobs.stop();
    }
  }, 60_000);
});
