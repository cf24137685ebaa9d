/**
 * Gives every field of a REST operation its snake_case alias (naming.ts), once, when the route table
 * is built. The GraphQL result then already has REST's key names: no per-response renaming pass.
 * Values of JSON scalars are leaves, so their keys (data, not field names) are never touched.
 */
import { Kind, visit, type DocumentNode } from "graphql";
import { snake } from "./naming";

export function withSnakeAliases(document: DocumentNode): DocumentNode {
  return visit(document, {
    Field(node) {
      if (node.alias)
        return node.alias.value === snake(node.alias.value)
          ? undefined
          : { ...node, alias: { kind: Kind.NAME, value: snake(node.alias.value) } };
      const name = snake(node.name.value);
      return name === node.name.value ? undefined : { ...node, alias: { kind: Kind.NAME, value: name } };
    },
  });
}
