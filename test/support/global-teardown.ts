/** jest globalTeardown: drops the run's template database (test/support/templates.ts). */
import { dropTemplates } from "./templates";

export default dropTemplates;
