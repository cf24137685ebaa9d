import type { NonEmptyArray } from "type-graphql";
import { blockResolvers } from "../features/blocks/block.resolver";
import { DistrictResolver } from "../features/districts/district.resolver";
import { DistrictSchoolsResolver } from "../features/schools/district-schools.resolver";
import { SchoolResolver } from "../features/schools/school.resolver";
import { EventQueryResolver } from "../features/events/event.resolver";
import { MetricsResolver } from "../features/metrics/metrics.resolver";
import { OperatorResolver } from "../features/operators/operator.resolver";
import { HeadStartProgramResolver } from "../features/head-start/head-start.resolver";
import { DistrictHeadStartResolver, OperatorHeadStartResolver } from "../features/head-start/head-start-relations.resolver";
import { OperatorChildcareResolver } from "../features/childcare/operator-childcare.resolver";
import { ChildcareCenterResolver } from "../features/childcare/childcare.resolver";
import { AssociationResolver } from "../features/associations/association.resolver";
import { ProjectResolver } from "../features/projects/project.resolver";
import { ListResolver } from "../features/lists/list.resolver";
import { FollowResolver } from "../features/follows/follow.resolver";
import { OrganizationResolver } from "../features/organizations/organization.resolver";
import { UnlockResolver } from "../features/unlocks/unlock.resolver";
import { ContactResolver } from "../features/contacts/contact.resolver";
import { ContactParentsResolver, DistrictContactsResolver, SchoolContactsResolver } from "../features/contacts/contact-relations.resolver";
import { BriefResolver, PromotedContactResolver } from "../features/briefs/brief.resolver";

/** Every feature's resolvers. A feature adds its classes here. */
export const resolvers: NonEmptyArray<Function> = [
  DistrictResolver,
  SchoolResolver,
  DistrictSchoolsResolver,
  // nested blocks of districts and schools (src/features/blocks/registry.ts), events, metrics catalogue
  ...blockResolvers(),
  EventQueryResolver,
  MetricsResolver,
  // early childhood: operators, Head Start programs, childcare centers
  OperatorResolver,
  HeadStartProgramResolver,
  ChildcareCenterResolver,
  // relations owned by early childhood: District.headStartPrograms, Operator.headStartPrograms / childcareCenters
  DistrictHeadStartResolver,
  OperatorHeadStartResolver,
  OperatorChildcareResolver,
  // associations and their sections and people
  AssociationResolver,
  // the caller's projects and lists
  ProjectResolver,
  ListResolver,
  // follows of the caller's projects (POST /follows, DELETE /follows/{id}, GET /projects/{id}/follows)
  FollowResolver,
  // the caller's organization (credits, follow slots)
  OrganizationResolver,
  // credits and unlock (POST /unlock, GET /unlock-status)
  UnlockResolver,
  // contacts (GET/POST /contacts, GET /contacts/{id})
  ContactResolver,
  // relations owned by contacts: District.contacts, School.contacts, Contact.district / Contact.school
  DistrictContactsResolver,
  SchoolContactsResolver,
  ContactParentsResolver,
  // deep-research briefs of a project's district or school, and promoting their people (docs/briefs.md)
  BriefResolver,
  PromotedContactResolver,
];
