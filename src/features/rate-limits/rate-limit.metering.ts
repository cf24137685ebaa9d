/**
 * REST and MCP run their operations through `executeRest`; the cost it computed for an admitted operation is
 * spent against the key's cost budget (the request's usage meter, on its context). /graphql spends its cost in
 * app.ts's operationAdmission, where Apollo admits the operation.
 */
import type { Context } from "../../graphql/context";
import type { ExecutionEngine } from "../../graphql/execution";

/** `engine` whose executeRest adds each admitted operation's cost to the request's usage. */
export function meteredEngine(engine: ExecutionEngine): ExecutionEngine {
  const metered = Object.create(engine) as ExecutionEngine;
  metered.executeRest = async (document, variables, context) => {
    // The context is made only once the operation passed admission: a refused operation spends nothing.
    let made: Context | undefined;
    const result = await engine.executeRest(document, variables, () => (made = context()));
    if (made?.usage && result.cost) made.usage.cost += result.cost;
    return result;
  };
  return metered;
}
