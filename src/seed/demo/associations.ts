/**
 * Demo associations for a few states (every name contains "Demo", URLs under demo.example.org), with
 * invented people (some redacted) and sections under the athletic association; plus invented staff for
 * a few real childcare centers. Real associations and center people come from the ingestors.
 */
import type { DemoRow } from "./bulk";
import { type AssociationKind, DEMO_HOST, DEMO_SOURCE, FIRST_NAMES, LAST_NAMES, STATE_NAMES } from "./catalog";
import { type CenterSeedRow, fictionalPhone, seededAt } from "./model";
import { DemoRandom, demoUuid } from "./random";

const REDACTED_NAME = "[redacted]";

interface AssociationPlan {
  kind: AssociationKind;
  label: string;
  short: string;
  hasMembers: boolean;
  /** Only the first state gets these, so that every contract kind occurs without bloating every state. */
  firstStateOnly?: boolean;
}

const PLANS: readonly AssociationPlan[] = [
  { kind: "state_athletic_association", label: "Demo Athletic Association", short: "DAA", hasMembers: true },
  { kind: "superintendents_association", label: "Demo Superintendents Association", short: "DSA", hasMembers: false },
  { kind: "school_boards_association", label: "Demo School Boards Association", short: "DSBA", hasMembers: false },
  { kind: "principals_association", label: "Demo Principals Association", short: "DPA", hasMembers: false },
  {
    kind: "state_activities_association",
    label: "Demo School Activities Association",
    short: "DSAA",
    hasMembers: true,
    firstStateOnly: true,
  },
];
const PEOPLE_TITLES = ["Executive Director", "Associate Director", "Board President"] as const;
const SECTIONS = 2;

export interface AssociationRows {
  associations: DemoRow[];
  association_people: DemoRow[];
}

/** `states` in the order the subset met them; `cityByState` gives each a plausible seat city. */
export function buildAssociations(
  seed: number,
  states: readonly string[],
  cityByState: ReadonlyMap<string, string | null>,
): AssociationRows {
  const rows: AssociationRows = { associations: [], association_people: [] };
  let personCounter = 0;
  const addPeople = (associationId: string, slug: string, titles: readonly string[], rng: DemoRandom): void => {
    titles.forEach((title, k) => {
      // Every third person is redacted: the record says someone holds the seat, not who.
      const redacted = personCounter++ % 3 === 2;
      rows.association_people.push({
        id: demoUuid(seed, `association-person/${slug}/${k}`),
        association_id: associationId,
        name: redacted ? REDACTED_NAME : `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
        title,
        redacted,
        data_source: DEMO_SOURCE,
        created_at: seededAt(),
      });
    });
  };

  states.forEach((state, stateIndex) => {
    const stateName = STATE_NAMES[state] ?? state;
    for (const plan of PLANS) {
      if (plan.firstStateOnly && stateIndex > 0) continue;
      const slug = `demo-${state.toLowerCase()}-${plan.kind.replace(/_/g, "-")}`;
      const rng = new DemoRandom(seed, `association/${slug}`);
      const id = demoUuid(seed, `association/${slug}`);
      const base = associationRow(
        id,
        slug,
        `${stateName} ${plan.label}`,
        `${state}${plan.short}`,
        plan.kind,
        state,
        null,
        cityByState.get(state) ?? null,
        rng,
      );
      rows.associations.push({
        ...base,
        member_school_count: plan.hasMembers ? rng.int(120, 480) : null,
        member_count_source_url: plan.hasMembers ? `${DEMO_HOST}/associations/${slug}/members` : null,
      });
      addPeople(id, slug, PEOPLE_TITLES, rng);

      if (plan.kind !== "state_athletic_association") continue;
      for (let section = 1; section <= SECTIONS; section += 1) {
        const sectionSlug = `${slug}-section-${section}`;
        const sectionRng = new DemoRandom(seed, `association/${sectionSlug}`);
        const sectionId = demoUuid(seed, `association/${sectionSlug}`);
        rows.associations.push({
          ...associationRow(
            sectionId,
            sectionSlug,
            `${stateName} ${plan.label}, Section ${section}`,
            `${state}${plan.short}-S${section}`,
            "other",
            state,
            id,
            cityByState.get(state) ?? null,
            sectionRng,
          ),
          member_school_count: sectionRng.int(20, 90),
          member_count_source_url: `${DEMO_HOST}/associations/${sectionSlug}/members`,
        });
        addPeople(sectionId, sectionSlug, ["Section Director"], sectionRng);
      }
    }
  });
  return rows;
}

function associationRow(
  id: string,
  slug: string,
  name: string,
  shortName: string,
  kind: AssociationKind,
  state: string,
  parentId: string | null,
  city: string | null,
  rng: DemoRandom,
): DemoRow {
  return {
    id,
    slug,
    name,
    short_name: shortName,
    kind,
    state,
    parent_association_id: parentId,
    website_url: `${DEMO_HOST}/associations/${slug}`,
    phone: fictionalPhone(null, rng.int(0, 99)),
    physical_address: `${rng.int(100, 999)} Example Avenue`,
    physical_city: city,
    physical_zip: null,
    source_url: `${DEMO_HOST}/associations/${slug}`,
    // Never verified: nobody checked an invented body against anything.
    verified_at: null,
    data_source: DEMO_SOURCE,
    created_at: seededAt(),
    updated_at: seededAt(),
  };
}

/** Two invented staff members per center; never "Director", which the state roster may name for real. */
export function buildChildcarePeople(seed: number, centers: readonly CenterSeedRow[]): DemoRow[] {
  return centers.flatMap((center) => {
    const rng = new DemoRandom(seed, `childcare-people/${center.source_key}`);
    return [
      { title: "Assistant Director", role: "assistant_director" },
      { title: "Family Engagement Coordinator", role: "staff" },
    ].map(({ title, role }, k) => ({
      id: demoUuid(seed, `childcare-person/${center.source_key}/${k}`),
      center_id: center.id,
      name: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
      title,
      role,
      data_source: DEMO_SOURCE,
      created_at: seededAt(),
    }));
  });
}
