/**
 * The five intelligence lists as field resolvers of District and School (one class per type, from the
 * same factory). Locked entities answer null without touching the database.
 */
import type DataLoader from "dataloader";
import { Ctx, FieldResolver, Resolver, Root, type ClassType } from "type-graphql";
import type { Context } from "../../graphql/context";
import { prefetched } from "../../graphql/fields";
import type { EntityKind } from "../common/entity-kind";
import { District } from "../districts/district.type";
import { School } from "../schools/school.type";
import { Bid, Contract, Funding, PainPoint, Vendor } from "./intelligence.type";

/** What the list services put on every district and school row. */
export interface GatedEntityRow {
  id: string;
  __unlock_state: string | null;
}

const NOTE = "Null unless the caller's organization has unlocked this entity.";

function revealed<T>(row: GatedEntityRow, field: string, loader: DataLoader<string, T[]>): Promise<T[]> | T[] | null {
  const ready = prefetched<T[] | null>(row, field);
  if (ready !== undefined) return ready;
  return row.__unlock_state === "unlocked" ? loader.load(row.id) : null;
}

export function intelligenceResolverFor(type: ClassType, kind: EntityKind): ClassType {
  @Resolver(() => type)
  class IntelligenceResolver {
    @FieldResolver(() => [PainPoint], { nullable: true, description: `Extracted pain points, newest first. ${NOTE}` })
    painPoints(@Root() row: GatedEntityRow, @Ctx() ctx: Context): Promise<PainPoint[]> | PainPoint[] | null {
      return revealed(row, "painPoints", ctx.loaders.intelligence[kind].painPoints);
    }

    @FieldResolver(() => [Vendor], { nullable: true, description: `Vendors in use, by name. ${NOTE}` })
    vendors(@Root() row: GatedEntityRow, @Ctx() ctx: Context): Promise<Vendor[]> | Vendor[] | null {
      return revealed(row, "vendors", ctx.loaders.intelligence[kind].vendors);
    }

    @FieldResolver(() => [Funding], { nullable: true, description: `Funding sources, latest fiscal year first. ${NOTE}` })
    funding(@Root() row: GatedEntityRow, @Ctx() ctx: Context): Promise<Funding[]> | Funding[] | null {
      return revealed(row, "funding", ctx.loaders.intelligence[kind].funding);
    }

    @FieldResolver(() => [Contract], { nullable: true, description: `Vendor contracts, soonest expiry first. ${NOTE}` })
    contracts(@Root() row: GatedEntityRow, @Ctx() ctx: Context): Promise<Contract[]> | Contract[] | null {
      return revealed(row, "contracts", ctx.loaders.intelligence[kind].contracts);
    }

    @FieldResolver(() => [Bid], { nullable: true, description: `Bids (RFPs), latest posted first, with the caller's filing. ${NOTE}` })
    bids(@Root() row: GatedEntityRow, @Ctx() ctx: Context): Promise<Bid[]> | Bid[] | null {
      return revealed(row, "bids", ctx.loaders.intelligence[kind].bids);
    }
  }
  Object.defineProperty(IntelligenceResolver, "name", { value: `${type.name}IntelligenceResolver` });
  return IntelligenceResolver;
}

export const DistrictIntelligenceResolver = intelligenceResolverFor(District, "district");
export const SchoolIntelligenceResolver = intelligenceResolverFor(School, "school");
