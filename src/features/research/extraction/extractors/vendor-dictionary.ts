/**
 * The vendor dictionary: K-12 products and companies by the contract's vendor categories. A vendor is
 * recorded when one of its aliases occurs in a crawled document, matched case-sensitively on word
 * boundaries (names are proper nouns; "canvas" the fabric or "clever" the adjective do not match).
 * Aliases that are ordinary words are written so they cannot match alone ("Canvas LMS", not "Canvas").
 */
import { escapeRegExp } from "../../../kits/common/text";
export interface VendorEntry {
  name: string;
  category: "sis" | "lms" | "assessment" | "communication" | "hr" | "finance" | "security" | "sso" | "devices" | "other";
  aliases: string[];
}

export const VENDOR_DICTIONARY: readonly VendorEntry[] = [
  // student information systems
  { name: "PowerSchool", category: "sis", aliases: ["PowerSchool"] },
  { name: "Infinite Campus", category: "sis", aliases: ["Infinite Campus"] },
  { name: "Skyward", category: "sis", aliases: ["Skyward"] },
  { name: "Aeries", category: "sis", aliases: ["Aeries"] },
  { name: "Edupoint Synergy", category: "sis", aliases: ["Edupoint", "Synergy SIS", "ParentVUE", "StudentVUE"] },
  { name: "Tyler SIS", category: "sis", aliases: ["Tyler SIS", "Tyler Student Information"] },
  { name: "Follett Aspen", category: "sis", aliases: ["Aspen SIS", "Follett Aspen", "X2 Aspen"] },
  { name: "Focus School Software", category: "sis", aliases: ["Focus School Software", "Focus SIS"] },
  { name: "eSchoolPLUS", category: "sis", aliases: ["eSchoolPLUS", "eSchool Plus"] },
  { name: "Sapphire Community Portal", category: "sis", aliases: ["Sapphire Community Portal"] },
  // learning management
  { name: "Canvas", category: "lms", aliases: ["Canvas LMS", "Instructure", "Canvas learning management"] },
  { name: "Schoology", category: "lms", aliases: ["Schoology"] },
  { name: "Google Classroom", category: "lms", aliases: ["Google Classroom"] },
  { name: "Blackboard Learn", category: "lms", aliases: ["Blackboard Learn"] },
  { name: "Moodle", category: "lms", aliases: ["Moodle"] },
  { name: "Brightspace", category: "lms", aliases: ["Brightspace", "D2L"] },
  { name: "Seesaw", category: "lms", aliases: ["Seesaw"] },
  { name: "Edmodo", category: "lms", aliases: ["Edmodo"] },
  // assessment
  { name: "NWEA MAP Growth", category: "assessment", aliases: ["NWEA", "MAP Growth"] },
  { name: "i-Ready", category: "assessment", aliases: ["i-Ready", "iReady", "Curriculum Associates"] },
  { name: "Renaissance Star", category: "assessment", aliases: ["Renaissance Star", "Star Reading", "Star Math", "Renaissance Learning"] },
  { name: "DIBELS", category: "assessment", aliases: ["DIBELS", "mCLASS"] },
  { name: "Illuminate Education", category: "assessment", aliases: ["Illuminate Education", "Illuminate DnA"] },
  { name: "Edulastic", category: "assessment", aliases: ["Edulastic"] },
  { name: "Pearson", category: "assessment", aliases: ["Pearson Education", "PearsonAccess", "Pearson assessment"] },
  { name: "Amplify", category: "assessment", aliases: ["Amplify Education", "Amplify Reading", "Amplify CKLA", "Amplify Science"] },
  { name: "Panorama Education", category: "assessment", aliases: ["Panorama Education"] },
  // communication
  { name: "ParentSquare", category: "communication", aliases: ["ParentSquare"] },
  { name: "SchoolMessenger", category: "communication", aliases: ["SchoolMessenger", "School Messenger"] },
  { name: "Remind", category: "communication", aliases: ["Remind app", "Remind.com", "Remind 101"] },
  { name: "Blackboard Connect", category: "communication", aliases: ["Blackboard Connect"] },
  { name: "Finalsite", category: "communication", aliases: ["Finalsite"] },
  { name: "Apptegy", category: "communication", aliases: ["Apptegy", "Thrillshare"] },
  { name: "ClassDojo", category: "communication", aliases: ["ClassDojo", "Class Dojo"] },
  { name: "Bloomz", category: "communication", aliases: ["Bloomz"] },
  { name: "SchoolStatus", category: "communication", aliases: ["SchoolStatus"] },
  { name: "Edlio", category: "communication", aliases: ["Edlio"] },
  // human resources
  { name: "Frontline Education", category: "hr", aliases: ["Frontline Education", "Frontline Absence", "AppliTrack", "Aesop absence"] },
  { name: "TalentEd", category: "hr", aliases: ["TalentEd", "PowerSchool Unified Talent"] },
  { name: "Kelly Education", category: "hr", aliases: ["Kelly Education"] },
  { name: "ESS", category: "hr", aliases: ["ESS Substitute", "Source4Teachers"] },
  { name: "Red Rover", category: "hr", aliases: ["RedRover", "Red Rover substitute"] },
  // finance
  { name: "Tyler Technologies", category: "finance", aliases: ["Tyler Technologies", "Munis", "Tyler Munis"] },
  { name: "Infinite Visions", category: "finance", aliases: ["Infinite Visions"] },
  { name: "BusinessPLUS", category: "finance", aliases: ["BusinessPLUS"] },
  { name: "Workday", category: "finance", aliases: ["Workday"] },
  { name: "Sage Intacct", category: "finance", aliases: ["Sage Intacct"] },
  { name: "Alio", category: "finance", aliases: ["Alio ERP", "Harris School Solutions"] },
  // security and safety
  { name: "GoGuardian", category: "security", aliases: ["GoGuardian"] },
  { name: "Securly", category: "security", aliases: ["Securly"] },
  { name: "Gaggle", category: "security", aliases: ["Gaggle"] },
  { name: "Lightspeed Systems", category: "security", aliases: ["Lightspeed Systems", "Lightspeed Filter"] },
  { name: "Raptor Technologies", category: "security", aliases: ["Raptor Technologies", "Raptor visitor management"] },
  { name: "Verkada", category: "security", aliases: ["Verkada"] },
  { name: "CrowdStrike", category: "security", aliases: ["CrowdStrike"] },
  { name: "iboss", category: "security", aliases: ["iboss"] },
  { name: "Navigate360", category: "security", aliases: ["Navigate360"] },
  { name: "Centegix", category: "security", aliases: ["Centegix", "CENTEGIX"] },
  { name: "Fortinet", category: "security", aliases: ["Fortinet", "FortiGate"] },
  // single sign-on and identity
  { name: "ClassLink", category: "sso", aliases: ["ClassLink"] },
  { name: "Clever", category: "sso", aliases: ["Clever SSO", "Clever Portal", "Clever badges", "Clever single sign-on"] },
  { name: "Okta", category: "sso", aliases: ["Okta"] },
  { name: "Microsoft Entra ID", category: "sso", aliases: ["Entra ID", "Azure Active Directory"] },
  // devices
  { name: "Google Chromebook", category: "devices", aliases: ["Chromebook", "Chromebooks"] },
  { name: "Apple", category: "devices", aliases: ["iPad", "iPads", "MacBook", "MacBooks"] },
  { name: "Dell", category: "devices", aliases: ["Dell Technologies", "Dell Latitude", "Dell laptops"] },
  { name: "Lenovo", category: "devices", aliases: ["Lenovo"] },
  { name: "HP", category: "devices", aliases: ["HP Chromebook", "HP laptops", "Hewlett-Packard"] },
  { name: "Promethean", category: "devices", aliases: ["Promethean", "ActivPanel"] },
  { name: "SMART Technologies", category: "devices", aliases: ["SMART Board", "SMART Technologies"] },
  { name: "CDW-G", category: "devices", aliases: ["CDW-G", "CDW Government", "CDW"] },
  // instruction and operations
  { name: "Newsela", category: "other", aliases: ["Newsela"] },
  { name: "IXL", category: "other", aliases: ["IXL"] },
  { name: "Khan Academy", category: "other", aliases: ["Khan Academy"] },
  { name: "BrainPOP", category: "other", aliases: ["BrainPOP"] },
  { name: "Zearn", category: "other", aliases: ["Zearn"] },
  { name: "Lexia", category: "other", aliases: ["Lexia"] },
  { name: "Imagine Learning", category: "other", aliases: ["Imagine Learning", "Edgenuity"] },
  { name: "Discovery Education", category: "other", aliases: ["Discovery Education"] },
  { name: "Naviance", category: "other", aliases: ["Naviance"] },
  { name: "Xello", category: "other", aliases: ["Xello"] },
  { name: "Nutrislice", category: "other", aliases: ["Nutrislice"] },
  { name: "Transfinder", category: "other", aliases: ["Transfinder"] },
  { name: "Edulog", category: "other", aliases: ["Edulog"] },
  { name: "SchoolDude", category: "other", aliases: ["SchoolDude", "Brightly Software"] },
];

/** One regex per vendor: any alias, not inside a longer word. */
export const VENDOR_PATTERNS: readonly { entry: VendorEntry; pattern: RegExp }[] = VENDOR_DICTIONARY.map((entry) => ({
  entry,
  pattern: new RegExp(`(?<![\\w-])(?:${entry.aliases.map(escapeRegExp).join("|")})(?![\\w-])`),
}));

/**
 * The dictionary vendor a sentence names as a party ("with Infinite Campus", "from CDW-G"), else the
 * first one it names, else null.
 */
export function vendorIn(text: string): VendorEntry | null {
  let first: { entry: VendorEntry; index: number } | null = null;
  let party: { entry: VendorEntry; index: number } | null = null;
  for (const { entry, pattern } of VENDOR_PATTERNS) {
    const m = pattern.exec(text);
    if (!m) continue;
    if (!first || m.index < first.index) first = { entry, index: m.index };
    if (/\b(with|from|to|by)\s+$/i.test(text.slice(Math.max(0, m.index - 6), m.index)) && (!party || m.index < party.index))
      party = { entry, index: m.index };
  }
  return (party ?? first)?.entry ?? null;
}
