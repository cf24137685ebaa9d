/**
 * Runs one REST endpoint's operation on the shared execution engine and turns its errors into what the
 * router answers: coded errors pass, variable-coercion errors (no data at all) are the caller's input,
 * anything else is masked by the one error model.
 */
import type { Request, Response } from "express";
import type { DocumentNode, GraphQLError, GraphQLFormattedError } from "graphql";
import { maskError } from "../src/graphql/errors";
import type { RestAdapterHost } from "../src/graphql/execution";
import type { Notice } from "../src/graphql/notices";
import { snake } from "../src/graphql/naming";
import { VariableValueError } from "../src/graphql/variables";

export interface RestResult {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
  /** What the resolvers noted (src/graphql/notices.ts); a list body carries them as `notices`. */
  notices?: Notice[];
}

export async function executeRoute(
  host: RestAdapterHost,
  document: DocumentNode,
  variables: Record<string, unknown>,
  req: Request,
  res: Response,
  budget?: "fresh",
): Promise<RestResult> {
  const result = await host.engine.executeRest(document, variables, () => host.contextFor(req, res, budget));
  // The cost as /graphql reports it in extensions.cost (docs/http-conventions.md).
  if (result.cost !== undefined && !res.headersSent) {
    res.setHeader("X-Query-Cost", String(result.cost));
    res.setHeader("X-Query-Cost-Limit", String(host.engine.maxCost));
  }
  // Errors without data were raised before execution (variable values the types reject): the
  // caller's input, as graphql-js and Apollo classify them. A null `data` is a failed non-null root
  // field (a resolver's error): that one is masked as usual.
  const requestError = result.data === undefined ? "BAD_USER_INPUT" : undefined;
  return {
    notices: result.notices,
    data: result.data as Record<string, unknown> | null | undefined,
    errors: result.errors?.map((error) => {
      if (error instanceof VariableValueError) return { message: restMessage(error), extensions: { code: "BAD_USER_INPUT" } };
      const formatted = (error as GraphQLError).toJSON?.() ?? (error as unknown as GraphQLFormattedError);
      if (requestError && !formatted.extensions?.code) return { ...formatted, extensions: { ...formatted.extensions, code: requestError } };
      return maskError(formatted, error);
    }),
  };
}

/**
 * A refused variable value in REST's words: the JSON body's `input` is named by its body properties
 * (`body property entity_ids[0]`, `unknown body property colour`), any other variable by its parameter
 * (`limit`, `brief_id`), all snake_case as the caller wrote them; never GraphQL's variable or type names.
 */
export function restMessage(error: VariableValueError): string {
  // Body keys were camelCased from the caller's snake_case (router.ts camelKeys), so snake() gives them back as sent.
  const place = error.place(snake, snake);
  if (error.variable === "input" && error.at.length)
    return error.problem === "unknown" ? `unknown body property ${place}` : error.describe(`body property ${place}`);
  return error.problem === "unknown" ? `unknown parameter ${place}` : error.describe(place);
}
