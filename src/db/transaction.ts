/**
 * Transactions shared by every feature that writes in one: the client type a function takes to run inside
 * its caller's transaction, and the options of the money path's transactions.
 */
import type { Prisma } from "./generated/client";

/** A Prisma interactive transaction: functions taking one run inside their caller's transaction. */
export type Tx = Prisma.TransactionClient;

/** Transactions of the money path: long enough to wait behind other unlocks of the same organization. */
export const MONEY_TX = { maxWait: 30_000, timeout: 60_000 } as const;
