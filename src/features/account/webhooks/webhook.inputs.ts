import { Field, InputType } from "type-graphql";
import { LimitArgs } from "../../kits/common/list-kit";

/** Webhooks one organization may have (disabled ones count until deleted). */
export const WEBHOOKS_PER_ORGANIZATION = 10;
/** Longest target URL. */
export const WEBHOOK_URL_MAX = 2048;
/** Entries of a body's events list (repeats included): a bound on work, far above the catalogue. */
export const EVENT_ENTRIES_MAX = 100;
/** Delivery log entries one read returns at most (newest first). */
export const DELIVERIES_MAX_LIMIT = 200;
export const DELIVERIES_DEFAULT_LIMIT = 50;
/** The delivery log's page size (the list kit's limit: described and checked like every page's). */
export const DeliveriesArgs = LimitArgs({ defaultLimit: DELIVERIES_DEFAULT_LIMIT, maxLimit: DELIVERIES_MAX_LIMIT });
export type DeliveriesArgs = InstanceType<typeof DeliveriesArgs>;

/** POST /webhooks body. Events are strings (their names have dots), checked by the service. */
@InputType()
export class CreateWebhookInput {
  @Field(() => String) url: string;
  @Field(() => [String]) events: string[];
}
