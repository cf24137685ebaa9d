/**
 * Every feature of the service, one line each (each folder's `feature.ts`: src/graphql/feature.ts), installed
 * when this module loads. The composition roots (the schema, the job worker, the CLI) import it.
 */
import { bidFilingsFeature } from "../features/account/bid-filings/feature";
import { emailTemplatesFeature } from "../features/account/email-templates/feature";
import { followsFeature } from "../features/account/follows/feature";
import { listsFeature } from "../features/account/lists/feature";
import { organizationsFeature } from "../features/account/organizations/feature";
import { projectsFeature } from "../features/account/projects/feature";
import { unlocksFeature } from "../features/account/unlocks/feature";
import { webhooksFeature } from "../features/account/webhooks/feature";
import { aggregatesFeature } from "../features/catalogue/aggregates/feature";
import { assessmentsFeature } from "../features/catalogue/assessments/feature";
import { associationsFeature } from "../features/catalogue/associations/feature";
import { childcareFeature } from "../features/catalogue/childcare/feature";
import { contactsFeature } from "../features/catalogue/contacts/feature";
import { districtsFeature } from "../features/catalogue/districts/feature";
import { eventsFeature } from "../features/catalogue/events/feature";
import { headStartFeature } from "../features/catalogue/head-start/feature";
import { metricsFeature } from "../features/catalogue/metrics/feature";
import { operatorsFeature } from "../features/catalogue/operators/feature";
import { schoolsFeature } from "../features/catalogue/schools/feature";
import { specialEducationFeature } from "../features/catalogue/special-education/feature";
import { statisticsFeature } from "../features/catalogue/statistics/feature";
import { blocksFeature } from "../features/kits/blocks/feature";
import { briefsFeature } from "../features/research/briefs/feature";
import { intelligenceFeature } from "../features/research/intelligence/feature";
import { newsFeature } from "../features/research/news/feature";
import { opportunitiesFeature } from "../features/research/opportunities/feature";
import { outreachFeature } from "../features/research/outreach/feature";
import { semanticSearchFeature } from "../features/research/semantic-search/feature";
import { wholeDictionary } from "./dictionary";
import { installFeatures, type Feature } from "./feature";

export const FEATURES: readonly Feature[] = [
  // the catalogue (rest-adapter/routes.ts routes /districts/summary before /districts/:id whatever this order)
  districtsFeature,
  schoolsFeature,
  aggregatesFeature,
  statisticsFeature,
  assessmentsFeature,
  specialEducationFeature,
  eventsFeature,
  metricsFeature,
  operatorsFeature,
  headStartFeature,
  childcareFeature,
  associationsFeature,
  contactsFeature,
  // the research pipeline
  intelligenceFeature,
  briefsFeature,
  newsFeature,
  opportunitiesFeature,
  outreachFeature,
  semanticSearchFeature,
  // the account and its money
  organizationsFeature,
  projectsFeature,
  listsFeature,
  followsFeature,
  unlocksFeature,
  emailTemplatesFeature,
  bidFilingsFeature,
  webhooksFeature,
  // kits
  blocksFeature,
];

export const INSTALLED = installFeatures(FEATURES);

/** The whole field dictionary: the shared entries and every feature's. */
export const FIELD_DICTIONARY = wholeDictionary(INSTALLED.dictionaries);
