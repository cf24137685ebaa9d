/**
 * REST and MCP run their operations through `executeRest`; the cost it computed for an admitted operation is
 * spent against the key's cost budget (the request's usage meter, on its context). /graphql spends its cost in
 * app.ts's operationAdmission, where Apollo admits the operation. An expensive operation waits for its turn in
 * the process's scheduler (rate-limit.scheduler.ts) first.
 */
import { getOperationAST } from "graphql";
import type { Context } from "../../../graphql/context";
import type { ExecutionEngine } from "../../../graphql/execution";
import type { OperationScheduler } from "./rate-limit.scheduler";

/** The operation's cost with these variables; 0 when they are refused (executeRest answers that at once). */
function costOf(
  engine: ExecutionEngine,
  document: Parameters<ExecutionEngine["executeRest"]>[0],
  variables: Record<string, unknown>,
): number {
  const operation = getOperationAST(document);
  if (!operation) return 0;
  try {
    return engine.cost(document, operation, engine.variables(operation, variables));
  } catch {
    return 0;
  }
}

/** `engine` whose executeRest adds each admitted operation's cost to the request's usage. */
export function meteredEngine(engine: ExecutionEngine, scheduler?: OperationScheduler): ExecutionEngine {
  const metered = Object.create(engine) as ExecutionEngine;
  metered.executeRest = async (document, variables, context) => {
    const ctx: Context = context();
    const leave = scheduler ? await scheduler.enter(ctx.viewer.apiKeyId, costOf(engine, document, variables), ctx.signal) : undefined;
    try {
      // The engine takes the context only once the operation passed admission: a refused operation spends nothing.
      let admitted = false;
      const result = await engine.executeRest(document, variables, () => ((admitted = true), ctx));
      if (admitted && ctx.usage && result.cost) ctx.usage.cost += result.cost;
      return result;
    } finally {
      leave?.();
    }
  };
  return metered;
}
