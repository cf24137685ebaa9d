/**
 * Parameter accumulator for hand-built SQL: every user value goes through `add`, which returns its
 * placeholder ($1, $2 ...). Identifiers never come from users: they come from allowlists in code.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Double-quotes an identifier taken from an allowlist (never from user input). */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
