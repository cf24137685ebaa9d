import { Field, Int, ObjectType } from "type-graphql";
import { Col } from "../../../graphql/fields";

@ObjectType()
export class Pagination {
  @Field(() => Int) total: number;
  @Field(() => Int) limit: number;
  @Field(() => Int) offset: number;
  @Col("bool", { required: true }) has_more: boolean;
}

export function pagination(total: number, limit: number, offset: number): Pagination {
  return { total, limit, offset, has_more: offset + limit < total };
}
