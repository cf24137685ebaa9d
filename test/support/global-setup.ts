/** jest globalSetup: the run's template database (test/support/templates.ts). */
import { buildTemplates } from "./templates";

export default buildTemplates;
