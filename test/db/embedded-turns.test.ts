/**
 * The embedded database serves concurrent HTTP clients in turn (src/db/turns.ts). Before, a request on PGlite ran from
 * its first statement to its response inside the event-loop callback that read it; Node accepts one connection per
 * event-loop iteration, so of many clients that connected at once, the k-th was first served after the clients before
 * it had been answered about k/2 times each (bench:unlock: p50 0.3 s, p99 7.2 s). Counted, not timed: each answer
 * carries how many answers the server had sent before it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createDb, type Db } from "../../src/db/client";

const CLIENTS = 20;
const REQUESTS_EACH = 8;
const STATEMENTS_PER_REQUEST = 4;

describe("embedded database under concurrent clients", () => {
  let db: Db;
  let server: http.Server;
  let base: string;
  let answered = 0;

  beforeAll(async () => {
    db = await createDb({ dataDir: "memory://" });
    server = http.createServer(async (_req, res) => {
      for (let i = 0; i < STATEMENTS_PER_REQUEST; i++) await db.query(`SELECT count(*) FROM generate_series(1, 2000)`);
      res.end(String(answered++));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await db?.close();
  });

  /** A client on a connection of its own: its answers' positions in the server's order. */
  const client = async (): Promise<number[]> => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const positions: number[] = [];
    try {
      for (let i = 0; i < REQUESTS_EACH; i++) {
        positions.push(
          await new Promise<number>((resolve, reject) =>
            http
              .get(`${base}/`, { agent }, (res) => {
                let body = "";
                res.on("data", (chunk: Buffer) => (body += chunk.toString()));
                res.on("end", () => resolve(Number(body)));
              })
              .on("error", reject),
          ),
        );
      }
    } finally {
      agent.destroy();
    }
    return positions;
  };

  it("answers every client that connected at once within the first rounds, none after the others' many answers", async () => {
    const positions = await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(positions.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: CLIENTS * REQUESTS_EACH }, (_, i) => i));
    // Served in turn, every client's first answer comes within the first rounds (a few late connections allowed: on a
    // busy CI core 41 was seen against 2 rounds = 40, and exactly 3 rounds = 60 in 1 of 4 runs of this file alone at
    // load average 2); without turns the last client waited for about 150 answers (103 today, with slices made endless).
    const firsts = positions.map((p) => p[0]!);
    expect(Math.max(...firsts)).toBeLessThan(4 * CLIENTS);
  });
});
