/** The member file a folder bundle runs now (set by test/support/bundle.ts, read by test/support/db.ts). */
export const CURRENT_MEMBER = Symbol.for("edmarket.bundleMember");
