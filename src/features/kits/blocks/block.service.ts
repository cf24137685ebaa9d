/**
 * Blocks of a list page, read in the list statement: `blockColumns` adds one column per block the
 * selection asks for (its rows as JSON; a gated block only for unlocked rows), and `prefetchBlocks`
 * shapes them into each row's field values, left on the row under PREFETCHED. The REST executor
 * serves those without calling a resolver (no promise per block and record); the field resolvers
 * (block.resolver.ts) answer with them before asking their loaders.
 */
import { PREFETCHED, type Prefetchable } from "../../../graphql/fields";
import { isUnlocked, unlockedSql } from "../../account/access/access.service";
import type { EntityKind } from "../common/entity-kind";
import type { Selection } from "../common/selection";
import { blockColumn, type BlockDefinition, type BlockField, type BlockRecord } from "./block";
import { installedFeatures } from "../../../graphql/feature";

/** On the value of a field other blocks nest under (annualStatistics): its record, for their loaders. */
export const BLOCK_RECORD = Symbol("block record");

/** The installed features' blocks by kind (src/graphql/features.ts), and the fields other blocks nest under. */
let byKind: Record<EntityKind, { blocks: readonly BlockDefinition[]; holders: ReadonlySet<string> }> | undefined;
function indexBlocks(): NonNullable<typeof byKind> {
  if (byKind) return byKind;
  const of = (kind: EntityKind) => {
    const blocks = installedFeatures().blocks.filter((block) => block.kinds.includes(kind));
    return { blocks, holders: new Set(blocks.flatMap((block) => (block.under ? [block.under.field] : []))) };
  };
  return (byKind = { district: of("district"), school: of("school") });
}
const blocksOf = (kind: EntityKind): readonly BlockDefinition[] => indexBlocks()[kind].blocks;

export const holdsBlocks = (kind: EntityKind, field: string): boolean => indexBlocks()[kind].holders.has(field);

interface Planned {
  block: BlockDefinition;
  column: string;
  /** The block's fields the selection asks for. */
  fields: readonly BlockField<unknown>[];
  /** Per field: whether other blocks nest under its value. */
  holds: readonly boolean[];
}

/** The blocks a selection of a record asks for: those on the record first, then those nested in their values. */
interface Plan {
  top: readonly Planned[];
  nested: readonly Planned[];
  /** Its list-statement columns, by the statement's aliases and placeholder (the same for every request of a list). */
  columns: Map<string, { column: string; sql: string }[]>;
}

const plans: Record<EntityKind, WeakMap<Selection, Plan>> = { district: new WeakMap(), school: new WeakMap() };

function planOf(kind: EntityKind, selection: Selection): Plan {
  let plan = plans[kind].get(selection);
  if (plan) return plan;
  const top: Planned[] = [];
  const nested: Planned[] = [];
  for (const block of blocksOf(kind)) {
    const at = block.under ? selection.fields.get(block.under.field) : selection;
    const fields = at ? block.fields.filter((field) => at.fields.has(field.name)) : [];
    if (!fields.length) continue;
    const planned = {
      block,
      column: blockColumn(block),
      fields,
      holds: fields.map((field) => !block.under && holdsBlocks(kind, field.name)),
    };
    (block.under ? nested : top).push(planned);
  }
  plan = { top, nested, columns: new Map() };
  plans[kind].set(selection, plan);
  return plan;
}

/** Aliases of a list statement: the record's row, its access join (src/features/account/access/), the organization's placeholder. */
export interface BlockColumnsContext {
  record: string;
  unlock: string;
  org: string;
}

/** The list statement's columns for the blocks `selection` (of one record) asks for. */
export function blockColumns(kind: EntityKind, selection: Selection, at: BlockColumnsContext): { column: string; sql: string }[] {
  const plan = planOf(kind, selection);
  const key = `${at.record} ${at.unlock} ${at.org}`;
  let columns = plan.columns.get(key);
  if (!columns) {
    const org = () => at.org;
    columns = [...plan.top, ...plan.nested].map(({ block, column }) => {
      const sql = block.sql({ kind, record: at.record, org });
      return { column, sql: block.gated ? `CASE WHEN ${unlockedSql(at.unlock)} THEN ${sql} END` : sql };
    });
    plan.columns.set(key, columns);
  }
  return columns;
}

/** After the list statement (with blockColumns): each row's block values, under PREFETCHED. */
export function prefetchBlocks(kind: EntityKind, rows: readonly BlockRecord[], selection: Selection): void {
  const { top, nested } = planOf(kind, selection);
  if (!top.length) return;
  for (const row of rows) {
    const columns = row as unknown as Record<string, unknown>;
    const ready: Record<string, unknown> = {};
    for (const { block, column, fields, holds } of top) {
      if (block.gated && !isUnlocked(row)) {
        for (const field of fields) ready[field.name] = null;
        continue;
      }
      const rowsOfBlock = block.decode(columns[column] ?? null);
      for (let i = 0; i < fields.length; i += 1) {
        const value = fields[i].shape(rowsOfBlock, row);
        if (holds[i] && value) (value as Record<symbol, unknown>)[BLOCK_RECORD] = row;
        ready[fields[i].name] = value;
      }
    }
    for (const { block, column, fields } of nested) {
      const holder = ready[block.under!.field] as Prefetchable | null | undefined;
      if (!holder) continue;
      const rowsOfBlock = block.decode(columns[column] ?? null);
      const inner = (holder[PREFETCHED] ??= {});
      for (const field of fields) inner[field.name] = field.shape(rowsOfBlock, row);
    }
    (row as Prefetchable)[PREFETCHED] = ready;
  }
}
