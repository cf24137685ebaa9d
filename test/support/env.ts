import "reflect-metadata";

process.env.LOG_LEVEL ??= "silent";
// Servers the tests start as processes (CLI) meet no rate limit either (test/support/app.ts GENEROUS_RATE_LIMITS).
for (const plan of ["FREE", "PRO", "ENTERPRISE"]) {
  process.env[`RATE_LIMIT_${plan}`] ??= "rate=1000000 burst=1000000 concurrency=100000 cost_rate=1000000000000 cost_burst=1000000000000";
}
