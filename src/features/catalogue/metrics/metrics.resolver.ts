import { Arg, Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { metricsCatalogue } from "./metrics.service";
import { MetricCatalogueEntry, MetricEntityType } from "./metrics.type";

@Resolver()
export class MetricsResolver {
  @Query(() => [MetricCatalogueEntry])
  metrics(@Arg("entityType", () => MetricEntityType) entityType: MetricEntityType, @Ctx() ctx: Context): Promise<MetricCatalogueEntry[]> {
    return metricsCatalogue(ctx.db, entityType);
  }
}
