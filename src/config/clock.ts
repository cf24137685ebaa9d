/**
 * "Now" for date rules (an opportunity's window): the system clock, which a test replaces to move through time
 * without waiting (setClock). Database timestamps (created_at, checked_at) keep the database's own clock.
 */
let current: () => Date = () => new Date();

export const now = (): Date => current();

/** Replaces the clock (null: the system clock again). Tests only. */
export function setClock(clock: (() => Date) | null): void {
  current = clock ?? (() => new Date());
}

/** The calendar day of `at` in UTC, as YYYY-MM-DD. */
export const isoDay = (at: Date): string => at.toISOString().slice(0, 10);
