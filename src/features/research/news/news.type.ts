import { Field, Int, ObjectType } from "type-graphql";
import { Col, type Timestamp } from "../../../graphql/fields";

/** The district a signal is about, as the spec's signal item names it. */
@ObjectType()
export class SignalDistrict {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string") state: string | null;
  @Col("string") fed_id: string | null;
}

/** The school a signal is about. */
@ObjectType()
export class SignalSchool {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) name: string;
  @Col("string") state: string | null;
}

/** One signal of an article (the spec's "Signal item"). */
@ObjectType()
export class Signal {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) signal_type: string;
  @Col("string", { required: true }) buying_intent: string;
  @Col("string") buying_intent_reason: string | null;
  @Col("string") summary: string | null;
  @Col("date") signal_date: string | null;
  @Col("float") signal_date_confidence: number | null;
  @Col("float") extraction_confidence: number | null;
  @Col("json") evidence: unknown;
  @Col("json") payload: unknown;
  @Col("string") entity_type: string | null;
  @Col("string") entity_resolution_status: string | null;
  @Col("float") entity_match_confidence: number | null;
  @Col("string") entity_match_reason: string | null;
  @Col(() => SignalDistrict) district: SignalDistrict | null;
  @Col(() => SignalSchool) school: SignalSchool | null;
  @Col("string", { required: true }) data_source: string;
}

/** A news article with its signals (the spec's "Signals feed article"). */
@ObjectType()
export class NewsArticle {
  @Col("uuid", { required: true }) id: string;
  @Col("string", { required: true }) url: string;
  @Col("string", { required: true }) title: string;
  @Col("string") domain: string | null;
  @Col("string") author: string | null;
  @Col("string") description: string | null;
  @Col("datetime") published_at: Timestamp | null;
  @Col("datetime", { required: true }) ingested_at: Timestamp;
  @Col("string", { required: true }) data_source: string;
  @Col(() => [Signal], { required: true }) signals: Signal[];
}

/** The feed's paging: the list pagination plus whether the total is exact (the count stops at 10,000). */
@ObjectType()
export class FeedPagination {
  @Field(() => Int) total: number;
  @Field(() => Int) limit: number;
  @Field(() => Int) offset: number;
  @Col("bool", { required: true }) has_more: boolean;
  @Col("bool", { required: true }) total_exact: boolean;
}

/** A page of the feed. */
@ObjectType()
export class NewsArticlePage {
  @Field(() => [NewsArticle]) data: NewsArticle[];
  @Field(() => FeedPagination) pagination: FeedPagination;
}
