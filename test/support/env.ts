import "reflect-metadata";

process.env.LOG_LEVEL ??= "silent";
// Servers the tests start as processes (CLI) meet no rate limit either (test/support/app.ts GENEROUS_RATE_LIMITS).
for (const plan of ["FREE", "PRO", "ENTERPRISE"]) {
  process.env[`RATE_LIMIT_${plan}`] ??= "rate=1000000 burst=1000000 concurrency=100000 cost_rate=1000000000000 cost_burst=1000000000000";
}
// Background embedding loads the model and embeds whatever a test inserted in every app with a worker: off unless a
// test turns it on (test/semantic-search embeds explicitly or sets EMBEDDINGS_AUTO itself).
process.env.EMBEDDINGS_AUTO ??= "false";
// Servers the tests start hold a few MB of data: the template's 16 MB buffer pool, not the serving default's 512 MB
// (zeroed at each start: memory and about 0.4 s of CPU per process).
process.env.EMBEDDED_SHARED_BUFFERS ??= "16MB";
// The servers and commands the tests start keep WebAssembly on V8's baseline compiler
// (test/support/wasm-tier.ts says why).
process.env.WASM_TIER_UP ??= "false";
