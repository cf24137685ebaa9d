import { parse } from "graphql";

/** The metrics catalogue of one entity type (the MCP tool metrics). */
export const METRIC_CATALOGUE = parse(`
query McpMetrics($entityType: MetricEntityType!) {
  metrics(entityType: $entityType) { metric type source years }
}`);
