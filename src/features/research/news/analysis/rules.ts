/**
 * The offline signal extractor (the default provider): weighted lexicons per signal type, scored per sentence
 * (the title counts twice), buying intent from the type and the words that say whether money is about to move
 * (passed, approved, issued, on the ballot, failed ...), the signal date from dates written near the evidence,
 * and a payload of what the text states (amounts, counts, percentages, dates, vendors). Deterministic, no model.
 */
import { findAmounts, findCounts, findDates, findPercents, findVendors, sentences, type Sentence } from "./text";
import { documentOf, type ArticleText, type BuyingIntent, type SignalDraft, type SignalExtractor, type SignalType } from "./types";

type Lexicon = readonly (readonly [RegExp, number])[];

/** Each type's cues and their weights (a sentence scores the sum of its cues' weights, each cue counted once). */
export const LEXICONS: Readonly<Record<Exclude<SignalType, "noise">, Lexicon>> = {
  facility_bond: [
    [/\bbonds?\b/i, 3],
    [/\b(referendum|mill levy|capital levy|building levy|bond levy)\b/i, 3],
    [/\b(measure [a-z0-9]{1,6}|proposition [a-z0-9]{1,3}|prop\.? [a-z0-9]{1,3})\b/i, 2],
    [/\b(voters?|ballot|election)\b/i, 1],
    [/\b(construction|renovat\w*|new (high |middle |elementary )?school building|facilit(y|ies)|modernize|hvac|roofs?|additions?)\b/i, 1],
  ],
  rfp_released: [
    [
      /\b(request for (proposals?|qualifications|quotes?|information)|rfp|rfq|rfi|invitation (to|for) bids?|solicitation|bid (opening|documents))\b/i,
      5,
    ],
    [/\bseek(s|ing)?\b.{0,50}\b(bids?|proposals?|vendors?|compan(y|ies)|firms?|contractors?|provider)\b/i, 5],
    [/\b(request(s|ed|ing)?|invit\w*|issu\w*)\b.{0,60}\b(proposals?|bids|qualifications)\b/i, 5],
    [/\b(food service management|management company|service provider)\b/i, 2],
    [
      /\b(solicit\w*|proposals? (are )?due|bids? (are )?due|sealed bids|vendors? (may|must|should) submit|submittals?|qualification statements)\b/i,
      3,
    ],
    [/\b(vendors?|firms?|contractors?|bidders?)\b/i, 1],
  ],
  leadership_change: [
    [
      /\bsuperintendent\b.{0,80}\b(resign\w*|retir\w*|named|hired|hires|appoint\w*|search|interim|fired|ousted|depart\w*|leav\w+|step(s|ping)? down|steps aside|finalists?|new|contract|successor|replace\w*|buyout|placed on leave)\b/i,
      5,
    ],
    [
      /\b(resign\w*|retir\w*|named|hired|appoint\w*|interim|fired|ousted|step(s|ping)? down|finalists?|successor|replace\w*)\b.{0,80}\bsuperintendent\b/i,
      5,
    ],
    [
      /\b(superintendent search|new superintendent|interim superintendent|acting superintendent|head of school|chancellor|new principal|principal (resign|retir)\w*)\b/i,
      4,
    ],
    [/\bsuperintendent\b/i, 1],
    [/\b(board (president|chair)|sworn in|board members?)\b/i, 1],
  ],
  grant_award: [
    [/\bgrants?\b.{0,60}\b(award\w*|receiv\w*|won|wins|get|gets|got|secur\w*|earn\w*|given|share|funded)\b/i, 5],
    [/\b(award\w*|receiv\w*|won|wins|secur\w*|earn\w*|get|gets|share)\b.{0,60}\bgrants?\b/i, 5],
    [/\bgrants?\b/i, 2],
    [/\b(21st century|title i|esser|competitive funding|foundation|donat\w*)\b/i, 1],
  ],
  budget_deficit: [
    [/\b(deficits?|shortfalls?|budget gap|fiscal cliff|budget cuts?|cuts? of \$|in the red|structural imbalance|insolven\w*)\b/i, 5],
    [/\b(trims?|trimm\w*|cuts?|slash\w*)\b.{0,20}\$/i, 4],
    [
      /\b(layoffs?|laid off|lay off|reduction in force|pink slips?|eliminat\w* (\d+ )?(positions|jobs)|cut (\d+ )?(positions|jobs|programs))\b/i,
      3,
    ],
    [/\b(cuts?|reduc\w*|tight budget|overspen\w*|deficit spending)\b/i, 1],
  ],
  budget_surplus: [
    [/\b(surplus(es)?|in the black|under budget|windfall|excess revenue|fund balance)\b/i, 5],
    [/\b(bonus(es)?|one-time payments?|carryover|reserves?|rainy day)\b/i, 2],
    [/\b(overestimat\w*|underestimat\w*)\b/i, 2],
  ],
  chronic_absenteeism: [
    [/\bchronic(ally)? absen\w*/i, 8],
    [/\b(absenteeism|truan\w*|attendance)\b/i, 4],
    [/\b(absences?|absent|missing school|missed (\d+ )?(days|school))\b/i, 2],
  ],
  staffing_shortage: [
    [/\b(teacher|staff|staffing|bus driver|driver|substitute|worker|nurse|paraprofessional|labor) shortages?\b/i, 8],
    [/\bshortages?\b/i, 4],
    [/\b(short|lack\w*) (of )?(about )?\d+ (\w+ )?(teachers|drivers|staff|nurses|substitutes)\b/i, 6],
    [/\b(struggl\w*|unable|scrambl\w*) to (hire|fill|staff|find)\b/i, 5],
    [/\bcall(ed|s)? out\b/i, 3],
    [/\b(vacanc(y|ies)|unfilled|open positions|understaffed|short-staffed|short staffed|hard to hire|recruit\w*|hiring)\b/i, 3],
    [/\b(substitutes?|bus drivers?|certified teachers|emergency (certification|licen[cs]es?))\b/i, 1],
  ],
  technology_initiative: [
    [
      /\b(learning platform|platform|apps?|website|schoology|canvas|clever|chromebooks?|ipads?|laptops?|tablets?|1:1|one-to-one|devices?|smart ?boards?|interactive (panels|displays)|wi-?fi|broadband|hotspots?)\b/i,
      4,
    ],
    [
      /\b(software|technology (plan|purchases?|upgrades?|initiative)|learning management system|student information system|cybersecurity|artificial intelligence|\bai\b|network upgrades?|servers?|cameras?|esports|robotics|stem lab)\b/i,
      3,
    ],
    [/\b(technology|tech|digital|computers?|online)\b/i, 1],
  ],
  curriculum_adoption: [
    [
      /\b(curricul(um|a)|instructional materials|textbooks?|reading program|math program|literacy (program|curriculum|adoption)|adopt\w* (new )?(materials|program|curriculum))\b/i,
      5,
    ],
    [/\b(adopt\w*|pilot\w*|science of reading|phonics|standards|lessons?|language arts|social studies|mathematics|math)\b/i, 1],
    [
      /\b(savvas|mcgraw|houghton|hmh|amplify|carnegie learning|eureka|wit & wisdom|ufli|illustrative mathematics|into reading|benchmark advance|ckla|el education|ready classroom)\b/i,
      3,
    ],
  ],
  safety_incident: [
    [
      /\b(lockdowns?|locked down|shooting|shot|gunfire|(hand)?guns?|firearms?|weapons?|pistol|knife|stabb\w*|bomb|hoax|swatting|threats?|evacuat\w*|ransomware|cyberattack|cyber attack|data breach|hack\w*|assault\w*|fight)\b/i,
      5,
    ],
    [/\b(arrest\w*|police|sheriff|deputies|charged|injur\w*|emergency|school resource officer|security)\b/i, 2],
  ],
  enrollment_change: [
    [
      /\benrol?lment\b.{0,60}\b(declin\w*|drop\w*|fall\w*|fell|grow\w*|grew|increas\w*|decreas\w*|shrink\w*|loss|lost|surg\w*|rise|rising|rose|up|down)\b/i,
      6,
    ],
    [/\b(declin\w*|drop\w*|falling|grow\w*|increas\w*|decreas\w*|shrink\w*|surg\w*)\b.{0,40}\benrol?lment\b/i, 6],
    [/\b(close|closing|closure of|consolidat\w*|merg\w*)\b.{0,40}\b(schools?|campuses|elementar(y|ies)|buildings)\b/i, 4],
    [/\b(will|to) close\b/i, 4],
    [/\b(rapid growth|fast-growing|growing district)\b/i, 4],
    [/\b(school closures?|portables|overcrowd\w*|boundary changes?|fewer students|more students|new students)\b/i, 3],
    [/\benrol?lment\b/i, 2],
  ],
};

/** Cues of news a vendor does not act on: sports, student honours, ceremonies, state-level releases, obituaries. */
const NOISE: Lexicon = [
  [
    /\b(varsity|championships?|tournament|playoffs?|season|coach(es)?|touchdown|basketball|football|soccer|baseball|softball|volleyball|wrestling|athletes?|team beat|scored)\b/i,
    3,
  ],
  [
    /\b(national merit|semifinalists?|scholarships?|honor roll|valedictorian|spelling bee|science fair|prom|homecoming|graduation ceremony|commencement|student of the (month|year)|teacher of the year)\b/i,
    4,
  ],
  [/\b(obituary|died|passed away|memorial)\b/i, 3],
  [
    /\b(state board of education|state education department|department of education)\b.{0,80}\b(release\w*|delay\w*|vote\w*|standards|results)\b/i,
    2,
  ],
];

/** Below this score the article is noise: nothing a vendor cares about was found. */
export const MIN_SIGNAL_SCORE = 4;
/** A second signal is kept when it scores at least this share of the first one and MIN_SECONDARY_SCORE. */
export const SECONDARY_SHARE = 0.8;
export const MIN_SECONDARY_SCORE = 8;

function lexiconScore(lexicon: Lexicon, sentence: string): number {
  let score = 0;
  for (const [re, weight] of lexicon) if (re.test(sentence)) score += weight;
  return score;
}

interface Scored {
  type: SignalType;
  score: number;
  sentences: Sentence[];
}

/** Every type's score over the document (title sentences count twice) and the sentences that scored. */
export function scoreTypes(doc: string, titleEnd: number): Scored[] {
  const all = sentences(doc);
  const result: Scored[] = [];
  const entries: [SignalType, Lexicon][] = [...(Object.entries(LEXICONS) as [SignalType, Lexicon][]), ["noise", NOISE]];
  for (const [type, lexicon] of entries) {
    let score = 0;
    const hits: { s: Sentence; score: number }[] = [];
    for (const s of all) {
      const v = lexiconScore(lexicon, s.text);
      if (!v) continue;
      score += s.start < titleEnd ? v * 2 : v;
      hits.push({ s, score: v });
    }
    result.push({ type, score, sentences: hits.sort((a, b) => b.score - a.score || a.s.start - b.s.start).map((h) => h.s) });
  }
  return result.sort((a, b) => b.score - a.score);
}

// ------------------------------------------------------------------------------------------------ intent

const INTENT_ORDER: readonly BuyingIntent[] = ["none", "low", "medium", "high"];
const step = (intent: BuyingIntent, by: number): BuyingIntent =>
  INTENT_ORDER[Math.max(0, Math.min(3, INTENT_ORDER.indexOf(intent) + by))] as BuyingIntent;

/** The type's usual intent and why (contract: high = about to spend, medium = likely soon, low = weak relevance). */
const BASE_INTENT: Readonly<Record<SignalType, [BuyingIntent, string]>> = {
  rfp_released: ["high", "an open solicitation: the district is buying now"],
  facility_bond: ["medium", "a bond or levy under consideration: capital spending may follow"],
  technology_initiative: ["medium", "a technology initiative: purchases are likely"],
  curriculum_adoption: ["high", "a curriculum adoption: materials will be bought"],
  grant_award: ["medium", "a grant award: new money to spend on its purpose"],
  leadership_change: ["medium", "a leadership change: new leaders review vendors and priorities"],
  staffing_shortage: ["medium", "a staffing shortage: recruiting, substitutes and staffing services are needed"],
  chronic_absenteeism: ["low", "absenteeism data: a problem that may lead to attendance programs"],
  enrollment_change: ["low", "an enrollment change: capacity and budgets will shift"],
  budget_deficit: ["low", "a budget deficit: spending is being cut"],
  budget_surplus: ["low", "a budget surplus: money may be available"],
  safety_incident: ["low", "a one-off incident: security spending is possible but not announced"],
  noise: ["none", "nothing a vendor acts on"],
};

const PASSED =
  /\b(approv\w*|passed|passes|pass(ing)?|won|wins|backed|adopt\w*|authoriz\w*|voted (\d-\d )?to (buy|purchase|spend|adopt|approve)|purchas\w*|buy|bought|sold|sells|sale of|awarded|signed|selected|picks?|chose|recommend\w*|will (buy|purchase|spend|receive)|funded)\b/i;
const PENDING =
  /\b(consider\w*|propos\w*|plan(s|ning|ned)? to|will ask|on the (ballot|agenda)|could|may|might|weigh\w*|delay\w*|postpon\w*|explor\w*|review\w*|pilot\w*|discuss\w*|study|studies|draft\w*)\b/i;
const FAILED = /\b(fail\w*|rejected|defeated|voted down|turned down|fell short|did not pass|los(t|es) (the|a) (bond|levy|vote))\b/i;
const CYBER = /\b(ransomware|cyberattack|cyber attack|data breach|hack\w*)\b/i;
const GROWTH = /\b(grow\w*|grew|increas\w*|surg\w*|more students|portables|overcrowd\w*|new school)\b/i;
const SPEND = /\b(spend\w*|invest\w*|bonus(es)?|purchas\w*|buy)\b/i;
const RENEWAL = /\b(renew\w*|extend\w*|extension)\b.{0,40}\bcontract\b/i;
const PROGRAM = /\b(program|initiative|partner\w*|contract\w*|campaign|pilot)\b/i;

/** Buying intent for a signal of `type`, read from the words of its evidence. */
export function intentFor(type: SignalType, evidence: string): { intent: BuyingIntent; reason: string } {
  const [base, why] = BASE_INTENT[type];
  let intent = base;
  let reason = why;
  switch (type) {
    case "facility_bond":
      if (FAILED.test(evidence)) [intent, reason] = ["low", "the bond or levy failed: no new capital money"];
      else if (PASSED.test(evidence) && !PENDING.test(evidence))
        [intent, reason] = ["high", "a bond passed or sold: capital spending ahead"];
      else if (PASSED.test(evidence)) [intent, reason] = ["high", "a bond approved or moving forward: capital spending ahead"];
      break;
    case "technology_initiative":
      if (PASSED.test(evidence) || /\$\d/.test(evidence)) [intent, reason] = ["high", "a funded or approved technology purchase"];
      break;
    case "curriculum_adoption":
      if (PENDING.test(evidence) && !PASSED.test(evidence))
        [intent, reason] = ["medium", "an adoption under review: materials may be bought"];
      break;
    case "leadership_change":
      if (RENEWAL.test(evidence)) [intent, reason] = ["low", "a leader's contract renewed: continuity, little change"];
      break;
    case "safety_incident":
      if (CYBER.test(evidence)) [intent, reason] = ["medium", "a cyberattack: security purchases are likely"];
      break;
    case "enrollment_change":
      if (GROWTH.test(evidence) && !/\b(declin\w*|drop\w*|fell|falling|shrink\w*|loss|lost|fewer)\b/i.test(evidence))
        [intent, reason] = ["medium", "enrollment growth: new space, staff and materials are needed"];
      break;
    case "budget_surplus":
      if (SPEND.test(evidence) && /\b(invest\w*|purchas\w*|buy|technology|facilit\w*)\b/i.test(evidence))
        [intent, reason] = ["medium", "a surplus being spent"];
      break;
    case "chronic_absenteeism":
      if (PROGRAM.test(evidence)) [intent, reason] = ["medium", "absenteeism with a program or contract in view"];
      break;
    case "staffing_shortage":
      if (!/\b(hire|hiring|recruit\w*|contract\w*|agenc\w*|stipend|incentive|bonus)\b/i.test(evidence))
        [intent, reason] = [step(intent, -1), "a shortage reported without a hiring program"];
      break;
    default:
      break;
  }
  return { intent, reason };
}

// ------------------------------------------------------------------------------------------------ the extractor

/** The summary: the first evidence sentence (the strongest), verbatim, cut at 300 characters on a word. */
function extractiveSummary(evidence: readonly Sentence[], fallback: string): string {
  const s = (evidence[0]?.text ?? fallback).replace(/\s+/g, " ").trim();
  if (s.length <= 300) return s;
  return `${s.slice(0, 300).replace(/\s+\S*$/, "")}…`;
}

function payloadOf(text: string, dates: ReturnType<typeof findDates>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  const amounts = findAmounts(text);
  if (amounts.length) payload.amounts = amounts.map((a) => ({ text: a.text, value: a.value }));
  const counts = findCounts(text);
  if (counts.length) payload.counts = counts.map((c) => ({ text: c.text, value: c.value, noun: c.noun }));
  const percents = findPercents(text);
  if (percents.length) payload.percentages = percents;
  if (dates.length) payload.dates = dates.map((d) => ({ text: d.text, date: d.date }));
  const vendors = findVendors(text);
  if (vendors.length) payload.vendors = vendors;
  return payload;
}

export function extractSignals(article: ArticleText): SignalDraft[] {
  const doc = documentOf(article);
  const titleEnd = article.title.trim().length;
  const scored = scoreTypes(doc, titleEnd);
  const signalScores = scored.filter((s) => s.type !== "noise");
  const noise = scored.find((s) => s.type === "noise") as Scored;
  const best = signalScores[0];
  const chosen: Scored[] = [];
  if (best && best.score >= MIN_SIGNAL_SCORE && best.score > noise.score * 1.5) {
    chosen.push(best);
    const second = signalScores[1];
    if (second && second.score >= MIN_SECONDARY_SCORE && second.score >= best.score * SECONDARY_SHARE) chosen.push(second);
  }
  const published = article.published_at;
  const publishedDate = published ? published.toISOString().slice(0, 10) : null;

  if (!chosen.length) {
    const evidence = (noise.sentences.length ? noise.sentences : sentences(doc)).slice(0, 1);
    return [
      {
        signal_type: "noise",
        buying_intent: "none",
        buying_intent_reason: noise.score
          ? "sports, honours or announcements: nothing a vendor acts on"
          : "no cue of a vendor-relevant signal",
        summary: extractiveSummary(evidence, article.title),
        signal_date: publishedDate,
        signal_date_confidence: publishedDate ? 0.5 : 0,
        extraction_confidence: round(Math.min(0.9, 0.5 + noise.score / 20)),
        evidence: evidence.map((s) => ({ text: s.text, start: s.start, end: s.end })),
        payload: {},
      },
    ];
  }

  return chosen.map((c) => {
    const evidence = c.sentences.slice(0, 3);
    const evidenceText = evidence.map((s) => s.text).join(" ");
    const { intent, reason } = intentFor(c.type, evidenceText);
    // The signal's date: a date written in its evidence (the earliest-placed one), else the publication day.
    const dates = findDates(doc, published);
    const near = dates.filter((d) => evidence.some((s) => d.start >= s.start && d.end <= s.end));
    const pick = near[0];
    const runnerUp = scored.find((s) => s.type !== c.type && s.type !== "noise")?.score ?? 0;
    const margin = c.score ? (c.score - runnerUp) / c.score : 0;
    return {
      signal_type: c.type,
      buying_intent: intent,
      buying_intent_reason: reason,
      summary: extractiveSummary(evidence, article.title),
      signal_date: pick?.date ?? publishedDate,
      signal_date_confidence: pick ? pick.confidence : publishedDate ? 0.5 : 0,
      extraction_confidence: round(Math.min(0.95, 0.45 + Math.min(c.score, 20) / 50 + margin * 0.2)),
      evidence: evidence.sort((a, b) => a.start - b.start).map((s) => ({ text: s.text, start: s.start, end: s.end })),
      payload: payloadOf(evidenceText, near.length ? near : []),
    };
  });
}

const round = (n: number) => Math.round(n * 100) / 100;

export class RulesSignalExtractor implements SignalExtractor {
  readonly name = "rules";
  async extract(article: ArticleText): Promise<SignalDraft[]> {
    return extractSignals(article);
  }
}
