/**
 * REST and MCP run their operations through `executeRest`; the cost it computed for an admitted operation is
 * spent against the key's cost budget (the request's usage meter, on its context). /graphql spends its cost in
 * app.ts's operationAdmission, where Apollo admits the operation. An expensive operation waits for its turn in
 * the process's scheduler (rate-limit.scheduler.ts) first.
 */
import type { Context } from "../../../graphql/context";
import type { ExecutionEngine } from "../../../graphql/execution";
import type { OperationScheduler } from "./rate-limit.scheduler";

/**
 * `engine` whose executeRest adds each admitted operation's cost to the request's usage. The cost is the one
 * the engine's admission computed for the request (admitRest), once: the scheduler waits by it, the meter adds it.
 */
export function meteredEngine(engine: ExecutionEngine, scheduler?: OperationScheduler): ExecutionEngine {
  const metered = Object.create(engine) as ExecutionEngine;
  metered.executeRest = async (document, variables, context) => {
    const admission = engine.admitRest(document, variables);
    const ctx: Context = context();
    // Refused variables cost 0 here: executeRest answers them at once.
    const leave = scheduler ? await scheduler.enter(ctx.viewer.apiKeyId, admission.cost ?? 0, ctx.signal) : undefined;
    try {
      // A refused operation spends nothing.
      const result = await engine.runRest(admission, () => ctx);
      if (!admission.refused && ctx.usage && result.cost) ctx.usage.cost += result.cost;
      return result;
    } finally {
      leave?.();
    }
  };
  return metered;
}
