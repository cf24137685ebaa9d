import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { SemanticSearchInput } from "./semantic-search.inputs";
import { semanticSearch } from "./semantic-search.service";
import { SemanticSearchResult } from "./semantic-search.type";

/** POST /semantic-search. A mutation: every search spends a credit. */
@Resolver()
export class SemanticSearchResolver {
  @Mutation(() => SemanticSearchResult)
  semanticSearch(@Arg("input", () => SemanticSearchInput) input: SemanticSearchInput, @Ctx() ctx: Context): Promise<SemanticSearchResult> {
    return semanticSearch(ctx.db, ctx.env, ctx.viewer, ctx.loaders, input, ctx.commit);
  }
}
