import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { UnlockEntityType, UnlockInput } from "./unlock.inputs";
import { unlock, unlockStatus } from "./unlock.service";
import { UnlockPayload, UnlockStatus } from "./unlock.type";

@Resolver()
export class UnlockResolver {
  @Mutation(() => UnlockPayload)
  unlock(@Arg("input", () => UnlockInput) input: UnlockInput, @Ctx() ctx: Context): Promise<UnlockPayload> {
    // The Idempotency-Key (every mutation's argument, src/graphql/idempotency.ts) becomes the unlock's operation_key.
    return unlock(ctx.db, ctx.viewer, input, { idempotencyKey: ctx.idempotencyKey, jobs: ctx.jobs, env: ctx.env, commit: ctx.commit });
  }

  @Query(() => UnlockStatus)
  unlockStatus(
    @Arg("entityType", () => UnlockEntityType) entityType: UnlockEntityType,
    @Arg("entityId", () => UUIDScalar) entityId: string,
    @Ctx() ctx: Context,
  ): Promise<UnlockStatus> {
    return unlockStatus(ctx.db, ctx.viewer, entityType, entityId);
  }
}
