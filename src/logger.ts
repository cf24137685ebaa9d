/** One-line JSON logs on stderr; LOG_LEVEL decides what is written. */
const LEVELS = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;
type Level = keyof typeof LEVELS;

function write(level: Exclude<Level, "silent">, message: string, fields?: Record<string, unknown>): void {
  const threshold = LEVELS[(process.env.LOG_LEVEL as Level) ?? "info"] ?? LEVELS.info;
  if (LEVELS[level] > threshold) return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

export const logger = {
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
};
