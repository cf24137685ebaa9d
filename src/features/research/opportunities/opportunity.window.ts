/**
 * An opportunity's window (spec "Opportunity verification": window_status unknown, open, closing, durable, closed):
 * how long acting on it makes sense, decided from dates alone, independently of whether the claim still stands.
 * The one rule: the agent sets the dates when it writes a row (windowOf), and every read and every verification run
 * decides the status from them and the clock (windowStatus), so a deadline that passed reads closed the day after.
 */
import { isoDay } from "../../../config/clock";
import type { SIGNAL_TYPES } from "../../kits/common/enums";

type SignalType = (typeof SIGNAL_TYPES)[number];

export const WINDOW_STATUSES = ["unknown", "open", "closing", "durable", "closed"] as const;
export type WindowStatus = (typeof WINDOW_STATUSES)[number];

/** A window ending within this many days is closing. */
export const CLOSING_DAYS = 14;

/**
 * Days a signal stays actionable after its event when the text gives no deadline; null: nothing expires (durable).
 * A released RFP runs about a month; money awarded or approved is spent over a semester or a year; a standing
 * shortage or trend does not expire.
 */
export const SIGNAL_WINDOW_DAYS: Readonly<Record<Exclude<SignalType, "noise">, number | null>> = {
  rfp_released: 30,
  safety_incident: 60,
  budget_surplus: 120,
  budget_deficit: 120,
  technology_initiative: 120,
  grant_award: 180,
  curriculum_adoption: 180,
  leadership_change: 180,
  facility_bond: 365,
  staffing_shortage: null,
  chronic_absenteeism: null,
  enrollment_change: null,
};

export interface WindowDates {
  window_ends_on: string | null;
  window_durable: boolean;
}

/** The status of a window on the day of `at`. */
export function windowStatus(window: WindowDates, at: Date): WindowStatus {
  if (window.window_durable) return "durable";
  if (!window.window_ends_on) return "unknown";
  const days = Math.round((Date.parse(window.window_ends_on) - Date.parse(isoDay(at))) / 86_400_000);
  if (days < 0) return "closed";
  return days <= CLOSING_DAYS ? "closing" : "open";
}

const addDays = (day: string, days: number): string => isoDay(new Date(Date.parse(day) + days * 86_400_000));

/**
 * The window of a signal-based opportunity: a date the text names after the event (a deadline, a vote) ends it;
 * else the signal type's usual span from the event; a type without one is durable; no event date: unknown.
 */
export function signalWindow(type: Exclude<SignalType, "noise">, eventDate: string | null, namedDates: readonly string[]): WindowDates {
  const span = SIGNAL_WINDOW_DAYS[type];
  if (span === null) return { window_ends_on: null, window_durable: true };
  if (!eventDate) return { window_ends_on: null, window_durable: false };
  const later = namedDates.filter((day) => day > eventDate).sort();
  return { window_ends_on: later.at(-1) ?? addDays(eventDate, span), window_durable: false };
}
