/**
 * Notices: what a caller should know about an answer that is not an error (docs/metric-query.md, history
 * gating). A resolver adds them to its request's context; REST writes them as the list body's top-level
 * `notices` (beside `data` and `pagination`), GraphQL as `extensions.notices`, MCP in the tool's payload.
 * Only present when one applies.
 */
export interface Notice {
  /** Stable, machine-readable: `history_gated`. */
  code: string;
  /** For a person: what happened and what to do about it. */
  message: string;
}

/** Adds `notices` to the request's, once each (a root field resolved twice notes its notice once). */
export function addNotices(ctx: { notices?: Notice[] }, notices: readonly Notice[] | undefined): void {
  if (!notices?.length) return;
  ctx.notices ??= [];
  for (const notice of notices) {
    if (!ctx.notices.some((n) => n.code === notice.code && n.message === notice.message)) ctx.notices.push(notice);
  }
}
