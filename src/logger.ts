/**
 * Structured JSON logs (pino), one line per event on stderr: `{"level","time","message",...fields}`.
 * LOG_LEVEL decides what is written (read again when it changes, as tests and the CLI set it late).
 * Inside a request every line also carries its `requestId` (`withRequestContext`, set by src/app.ts),
 * so callers keep calling `logger.info(message, fields)` without passing it around.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

const LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
type Level = (typeof LEVELS)[number];

interface RequestContext {
  requestId: string;
}

const requestContext = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts) with `requestId` on every log line. */
export function withRequestContext<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId }, fn);
}

/** The request id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

const levelFromEnv = (): Level => {
  const value = process.env.LOG_LEVEL as Level | undefined;
  return value && LEVELS.includes(value) ? value : "info";
};

let configuredLevel = levelFromEnv();

// process.stderr: synchronous for files and pipes (lines stay in order, none lost at exit), and one place to capture.
const base = pino(
  {
    level: configuredLevel,
    messageKey: "message",
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const id = currentRequestId();
      return id ? { requestId: id } : {};
    },
  },
  process.stderr,
);

function write(level: Exclude<Level, "silent">, message: string, fields?: Record<string, unknown>): void {
  const wanted = levelFromEnv();
  if (wanted !== configuredLevel) base.level = configuredLevel = wanted;
  if (fields) base[level](fields, message);
  else base[level](message);
}

export const logger = {
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
};
