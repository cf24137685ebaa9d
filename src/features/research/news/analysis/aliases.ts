/**
 * Short names districts are known by that cannot be derived from their directory names (or are derived but
 * ambiguous nationally). Each alias names the NCES LEAID it stands for and the state; an alias marked
 * `needsState` resolves only when the article also names that state (or a city of the district), because the
 * letters are used by several bodies (CMS, CPS, APS, SCS ...). Documented in docs/signals.md.
 */
export interface DistrictAlias {
  alias: string;
  fedId: string;
  state: string;
  name: string;
  needsState?: boolean;
}

export const DISTRICT_ALIASES: readonly DistrictAlias[] = [
  { alias: "LAUSD", fedId: "0622710", state: "CA", name: "Los Angeles Unified" },
  { alias: "SFUSD", fedId: "0634410", state: "CA", name: "San Francisco Unified" },
  { alias: "SDUSD", fedId: "0634320", state: "CA", name: "San Diego Unified" },
  { alias: "OUSD", fedId: "0628050", state: "CA", name: "Oakland Unified", needsState: true },
  { alias: "LBUSD", fedId: "0622500", state: "CA", name: "Long Beach Unified" },
  { alias: "SCUSD", fedId: "0633840", state: "CA", name: "Sacramento City Unified", needsState: true },
  { alias: "NMUSD", fedId: "0627240", state: "CA", name: "Newport-Mesa Unified" },
  { alias: "SJUSD", fedId: "0634590", state: "CA", name: "San Jose Unified", needsState: true },
  { alias: "HISD", fedId: "4823640", state: "TX", name: "Houston ISD" },
  { alias: "DISD", fedId: "4816230", state: "TX", name: "Dallas ISD", needsState: true },
  { alias: "AISD", fedId: "4808940", state: "TX", name: "Austin ISD", needsState: true },
  { alias: "FWISD", fedId: "4819700", state: "TX", name: "Fort Worth ISD" },
  { alias: "SAISD", fedId: "4838730", state: "TX", name: "San Antonio ISD" },
  { alias: "NEISD", fedId: "4832940", state: "TX", name: "North East ISD" },
  { alias: "FBISD", fedId: "4819650", state: "TX", name: "Fort Bend ISD" },
  { alias: "CFISD", fedId: "4816110", state: "TX", name: "Cypress-Fairbanks ISD" },
  { alias: "CMSD", fedId: "3904378", state: "OH", name: "Cleveland Municipal" },
  { alias: "CPS", fedId: "1709930", state: "IL", name: "Chicago Public Schools Dist 299", needsState: true },
  { alias: "JCPS", fedId: "2102990", state: "KY", name: "Jefferson County (Louisville)" },
  { alias: "CMS", fedId: "3702970", state: "NC", name: "Charlotte-Mecklenburg Schools", needsState: true },
  { alias: "DPSCD", fedId: "2601103", state: "MI", name: "Detroit Public Schools Community District" },
  { alias: "SCS", fedId: "4700148", state: "TN", name: "Memphis-Shelby County Schools", needsState: true },
  { alias: "MSCS", fedId: "4700148", state: "TN", name: "Memphis-Shelby County Schools" },
  { alias: "DCPS", fedId: "1100030", state: "DC", name: "District of Columbia Public Schools", needsState: true },
  { alias: "MCPS", fedId: "2400480", state: "MD", name: "Montgomery County Public Schools (Maryland)", needsState: true },
  { alias: "FCPS", fedId: "5101260", state: "VA", name: "Fairfax County Public Schools", needsState: true },
  { alias: "PGCPS", fedId: "2400510", state: "MD", name: "Prince George's County Public Schools" },
  { alias: "BCPS", fedId: "2400120", state: "MD", name: "Baltimore County Public Schools", needsState: true },
  { alias: "LCPS", fedId: "5102250", state: "VA", name: "Loudoun County Public Schools", needsState: true },
  { alias: "APS", fedId: "1300120", state: "GA", name: "Atlanta Public Schools", needsState: true },
  { alias: "CCSD", fedId: "3200060", state: "NV", name: "Clark County School District", needsState: true },
  { alias: "M-DCPS", fedId: "1200390", state: "FL", name: "Miami-Dade County Public Schools" },
  { alias: "MDCPS", fedId: "1200390", state: "FL", name: "Miami-Dade County Public Schools" },
  { alias: "SPPS", fedId: "2733840", state: "MN", name: "Saint Paul Public Schools", needsState: true },
  { alias: "MPS", fedId: "2721240", state: "MN", name: "Minneapolis Public School District", needsState: true },
  { alias: "OPS", fedId: "3174820", state: "NE", name: "Omaha Public Schools", needsState: true },
  { alias: "LPS", fedId: "3172840", state: "NE", name: "Lincoln Public Schools", needsState: true },
  { alias: "NYCDOE", fedId: "3620580", state: "NY", name: "New York City Department of Education" },
  { alias: "SDP", fedId: "4218990", state: "PA", name: "School District of Philadelphia", needsState: true },
];
