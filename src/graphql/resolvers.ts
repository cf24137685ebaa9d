import type { NonEmptyArray } from "type-graphql";
import { blockResolvers } from "../features/kits/blocks/block.resolver";
import { DistrictResolver } from "../features/catalogue/districts/district.resolver";
import { DistrictSchoolsResolver } from "../features/catalogue/schools/district-schools.resolver";
import { SchoolResolver } from "../features/catalogue/schools/school.resolver";
import { EventQueryResolver } from "../features/catalogue/events/event.resolver";
import { MetricsResolver } from "../features/catalogue/metrics/metrics.resolver";
import { OperatorResolver } from "../features/catalogue/operators/operator.resolver";
import { HeadStartProgramResolver } from "../features/catalogue/head-start/head-start.resolver";
import { DistrictHeadStartResolver, OperatorHeadStartResolver } from "../features/catalogue/head-start/head-start-relations.resolver";
import { OperatorChildcareResolver } from "../features/catalogue/childcare/operator-childcare.resolver";
import { ChildcareCenterResolver } from "../features/catalogue/childcare/childcare.resolver";
import { AssociationResolver } from "../features/catalogue/associations/association.resolver";
import { ProjectResolver } from "../features/account/projects/project.resolver";
import { ListResolver } from "../features/account/lists/list.resolver";
import { FollowResolver } from "../features/account/follows/follow.resolver";
import { OrganizationResolver } from "../features/account/organizations/organization.resolver";
import { UnlockResolver } from "../features/account/unlocks/unlock.resolver";
import { ContactResolver } from "../features/catalogue/contacts/contact.resolver";
import {
  ContactParentsResolver,
  DistrictContactsResolver,
  SchoolContactsResolver,
} from "../features/catalogue/contacts/contact-relations.resolver";
import { BriefResolver, PromotedContactResolver } from "../features/research/briefs/brief.resolver";

/** Every feature's resolvers. A feature adds its classes here. */
export const resolvers: NonEmptyArray<Function> = [
  DistrictResolver,
  SchoolResolver,
  DistrictSchoolsResolver,
  // nested blocks of districts and schools (src/features/kits/blocks/registry.ts), events, metrics catalogue
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
