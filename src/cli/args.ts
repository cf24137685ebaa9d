/** Minimal `--flag value` parsing for the admin CLI; repeated flags collect into arrays. */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string[]>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      const value = inline ?? (argv[i + 1] !== undefined && !argv[i + 1].startsWith("--") ? argv[(i += 1)] : "true");
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else positional.push(arg);
  }
  return { positional, flags };
}

export class UsageError extends Error {}

export function flag(args: ParsedArgs, name: string, required = true): string | undefined {
  const value = args.flags.get(name)?.at(-1);
  if (required && value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}
