// Prints a fragment selecting every field of a type, recursively (no arguments). Used to write the
// full-record fragments in the features' *.rest.graphql. Usage: print-fragment.ts <Type> [Name]
import { getNamedType, isCompositeType, isObjectType, type GraphQLObjectType } from "graphql";
import { getSchema } from "../src/graphql/schema";

const [typeName, fragmentName = `${typeName}Fields`] = process.argv.slice(2);
const schema = getSchema();
const selection = (type: GraphQLObjectType, indent: string, stack: string[]): string =>
  Object.values(type.getFields())
    .filter((f) => f.args.every((a) => a.defaultValue !== undefined || !String(a.type).endsWith("!")))
    .map((f) => {
      const named = getNamedType(f.type);
      if (!isCompositeType(named)) return `${indent}${f.name}`;
      if (!isObjectType(named) || stack.includes(named.name)) return null;
      return `${indent}${f.name} {\n${selection(named, `${indent}  `, [...stack, named.name])}\n${indent}}`;
    })
    .filter(Boolean)
    .join("\n");
const type = schema.getType(typeName);
if (!type || !isObjectType(type)) throw new Error(`no object type ${typeName}`);
console.log(`fragment ${fragmentName} on ${typeName} {\n${selection(type, "  ", [typeName])}\n}`);
