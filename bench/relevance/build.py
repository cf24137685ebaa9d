#!/usr/bin/env python3
"""Builds bench/relevance/semantic-queries.json from edm_scratch and bench/labelled/news/items.jsonl.

Every query is defined below with the reading or rule that decides relevance. Rule-based queries carry
their SQL (run here against edm_scratch, result frozen into the JSON); hand-judged queries list their
records explicitly. Keys are NCES fed_ids (7-digit LEAID, 12-digit NCESSCH) and, for contacts,
name + district_fed_id + school_fed_id of a row with source = 'state_directory' (never demo rows).

Usage (from the repository root):  python3 bench/relevance/build.py
Environment: PGHOST (127.0.0.1), PGUSER (postgres), PGDATABASE (edm_scratch).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "bench", "relevance", "semantic-queries.json")
NEWS = os.path.join(ROOT, "bench", "labelled", "news", "items.jsonl")

PG = ["psql", "-h", os.environ.get("PGHOST", "127.0.0.1"), "-U", os.environ.get("PGUSER", "postgres"),
      "-d", os.environ.get("PGDATABASE", "edm_scratch"), "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c"]


def sql(q):
    out = subprocess.run(PG + [q], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line.strip()]


NEWS_ITEMS = {}
with open(NEWS, encoding="utf-8") as f:
    for line in f:
        if line.strip():
            o = json.loads(line)
            NEWS_ITEMS[o["id"]] = o

# ---------------------------------------------------------------------------------------------------
# helpers producing "relevant" lists
# ---------------------------------------------------------------------------------------------------
POV23 = ("join district_annual_stats s on s.district_id = d.id and s.school_year_start = 2023 "
         "and s.school_age_population > 0")
POVPCT = "(s.school_age_children_in_poverty * 100.0 / s.school_age_population)"


def districts_sql(q):
    """q returns fed_id, grade"""
    return [{"entity_type": "district", "fed_id": r[0], "grade": int(r[1])} for r in sql(q)]


def schools_sql(q):
    return [{"entity_type": "school", "fed_id": r[0], "grade": int(r[1])} for r in sql(q)]


def contacts_sql(q):
    """q returns name, district_fed_id, school_fed_id ('' = null), grade; restricted to state_directory rows"""
    rows = sql(q)
    seen, out = set(), []
    for name, dfid, sfid, g in rows:
        key = (name, dfid, sfid or None)
        if key in seen:
            continue
        seen.add(key)
        out.append({"entity_type": "contact", "name": name, "district_fed_id": dfid or None,
                    "school_fed_id": sfid or None, "grade": int(g)})
    return out


def D(*pairs):
    return [{"entity_type": "district", "fed_id": f, "grade": g} for f, g in pairs]


def S(*pairs):
    return [{"entity_type": "school", "fed_id": f, "grade": g} for f, g in pairs]


def N(*triples):
    """(news item id, leaid, grade): the district the article is about, with the article's url"""
    out = []
    for nid, leaid, g in triples:
        item = NEWS_ITEMS[nid]
        assert leaid in item["truth"]["leaids"], (nid, leaid)
        out.append({"entity_type": "district", "fed_id": leaid, "source_url": item["url"], "grade": g})
    return out


CONTACT_COLS_DISTRICT = ("c.name, d.fed_id, '' as school_fed_id")
CONTACT_FROM_DISTRICT = ("from contacts c join districts d on d.id = c.district_id "
                         "where c.source = 'state_directory' and c.data_source <> 'demo' and c.school_id is null")
CONTACT_COLS_SCHOOL = ("c.name, s.district_fed_id, s.fed_id")
CONTACT_FROM_SCHOOL = ("from contacts c join schools s on s.id = c.school_id "
                       "where c.source = 'state_directory' and c.data_source <> 'demo'")

Q = []  # (kind, dict)


def add(kind, query, entity_type, relevant, judged, filters=None):
    d = {"query": query, "entity_type": entity_type}
    if filters:
        d["filters"] = filters
    d["relevant"] = relevant
    d["judged"] = judged
    Q.append((kind, d))


# ---------------------------------------------------------------------------------------------------
# DISTRICTS
# ---------------------------------------------------------------------------------------------------
add("district", "rural districts in Nebraska with high poverty", "district",
    districts_sql(f"select d.fed_id, 2 from districts d {POV23} where d.state = 'NE' and {POVPCT} >= 20 "
                  f"and d.student_count < 1000 order by 1"),
    "Rule (Nebraska has no NCES locale in the data, so 'rural' is read as small): NE districts with Census SAIPE "
    "2023 school-age poverty >= 20 % and fewer than 1,000 students, i.e. state = 'NE' and "
    "school_age_children_in_poverty*100.0/school_age_population >= 20 (school_year_start = 2023) and student_count < 1000; all grade 2.",
    {"state": "NE"})

add("district", "LAUSD", "district", D(("0622710", 2)),
    "Reading: the acronym of Los Angeles Unified (0622710).")

add("district", "school districts near Omaha", "district",
    districts_sql("select fed_id, case when county ~ '^((Douglas|Sarpy) County(; )?)+$' then 2 else 1 end from districts "
                  "where state = 'NE' and (county ilike '%Douglas County%' or county ilike '%Sarpy County%') order by 1"),
    "Rule: NE districts whose Census county list includes Douglas or Sarpy County (the Omaha counties); grade 2 when "
    "every listed county is Douglas or Sarpy, grade 1 when the district also spans other counties "
    "(county ~ '^((Douglas|Sarpy) County(; )?)+$').")

add("district", "small town school districts in Michigan with more than 2,500 students", "district",
    districts_sql("select fed_id, 2 from districts where state = 'MI' and locale_type like 'Town:%' "
                  "and student_count >= 2500 and district_type like 'Regular public school district%' order by 1"),
    "Rule: state = 'MI' and NCES locale_type like 'Town:%' (Fringe, Distant or Remote) and student_count >= 2500 and "
    "district_type like 'Regular public school district%' (virtual charters excluded); all grade 2.",
    {"state": "MI"})

add("district", "huston isd", "district", D(("4823640", 2)),
    "Reading: misspelled Houston ISD (4823640).")

add("district", "largest school districts in Florida", "district",
    districts_sql("select fed_id, case when rn <= 5 then 2 else 1 end from (select fed_id, row_number() over "
                  "(order by student_count desc) rn from districts where state = 'FL' and student_count is not null) x "
                  "where rn <= 10 order by rn"),
    "Rule: FL districts ranked by student_count (NCES 2023-24): top 5 grade 2 (Miami-Dade, Broward, Hillsborough, "
    "Orange, Palm Beach), ranks 6-10 grade 1.")

add("district", "mid-size city school districts in Washington state", "district",
    districts_sql("select fed_id, case when name ~* 'deaf|blind' then 1 else 2 end from districts where state = 'WA' "
                  "and locale_type = 'City: Midsize' and district_type like 'Regular public school district%' order by 1"),
    "Rule: state = 'WA' and locale_type = 'City: Midsize' and district_type like 'Regular public school district%' "
    "(ESDs, colleges and charters with that locale excluded); grade 2, except the two state schools for the deaf and "
    "the blind (typed regular by NCES) grade 1.")

add("district", "high poverty urban districts in Michigan", "district",
    districts_sql(f"select d.fed_id, 2 from districts d {POV23} where d.state = 'MI' and d.locale_type like 'City:%' "
                  f"and {POVPCT} >= 30 order by 1"),
    "Rule: state = 'MI' and locale_type like 'City:%' and SAIPE 2023 school-age poverty >= 30 % "
    "(Flint, Detroit, Saginaw, Dearborn, Pontiac); all grade 2.")

add("district", "Texas districts with more than 100,000 students", "district",
    districts_sql("select fed_id, 2 from districts where state = 'TX' and student_count > 100000 order by 1"),
    "Rule: state = 'TX' and student_count > 100000 (Houston, Dallas, Cypress-Fairbanks, Northside); all grade 2.",
    {"state": "TX"})

add("district", "CPS district 299 chicago", "district", D(("1709930", 2)),
    "Reading: Chicago Public Schools Dist 299 (1709930).")

add("district", "Clark County School District in Las Vegas", "district", D(("3200060", 2)),
    "Reading: Clark County, NV (3200060); other states' Clark County districts are not relevant.")

add("district", "miami dade county publc schools", "district", D(("1200390", 2)),
    "Reading: misspelled Miami-Dade County Public Schools (1200390).")

add("district", "FCPS", "district", D(("5101260", 2)),
    "Reading: with the VA filter, FCPS is Fairfax County Public Schools (5101260).",
    {"state": "VA"})

add("district", "statewide school district of Hawaii", "district", D(("1500030", 2)),
    "Reading: Hawaii Department of Education (1500030), the single regular district of the state.")

add("district", "unified school districts in Orange County, California", "district",
    districts_sql("select fed_id, case when county = 'Orange County' then 2 else 1 end from districts "
                  "where state = 'CA' and county ilike '%Orange County%' and name ilike '%Unified%' order by 1"),
    "Rule: state = 'CA' and county list includes 'Orange County' and name ilike '%Unified%'; grade 2 when Orange is "
    "the only county, grade 1 when it spans others (Rowland Unified is mainly in Los Angeles County).")

add("district", "ISDs in Dallas County", "district",
    districts_sql("select fed_id, case when county = 'Dallas County' then 2 else 1 end from districts "
                  "where state = 'TX' and county ilike '%Dallas County%' and name ilike '%ISD%' order by 1"),
    "Rule: state = 'TX' and county list includes 'Dallas County' and name ilike '%ISD%'; grade 2 when Dallas is the "
    "only county, grade 1 when the district spans other counties too.")

add("district", "borough school districts in Alaska", "district",
    districts_sql("select fed_id, 2 from districts where state = 'AK' and name ilike '%Borough%' order by 1"),
    "Rule: state = 'AK' and name ilike '%Borough%'; all grade 2.")

add("district", "educational service districts in Washington", "district",
    districts_sql("select fed_id, case when name ilike '%Educational Service District%' then 2 else 1 end from districts "
                  "where state = 'WA' and name ilike '%Educational Service%' order by 1"),
    "Rule: state = 'WA' and name ilike '%Educational Service%'; the nine ESDs grade 2, 'Educational Service Agency 112' grade 1.")

add("district", "BOCES on Long Island", "district",
    D(("3680540", 2), ("3680820", 2), ("3680860", 2)),
    "Reading: the BOCES of Nassau and Suffolk counties: Nassau BOCES, Eastern Suffolk BOCES, Western Suffolk BOCES "
    "(state = 'NY' and name ilike '%BOCES%' and name ~* 'nassau|suffolk').")

add("district", "large suburban districts in California with over 40,000 students", "district",
    districts_sql("select fed_id, 2 from districts where state = 'CA' and locale_type = 'Suburb: Large' "
                  "and student_count >= 40000 order by 1"),
    "Rule: state = 'CA' and locale_type = 'Suburb: Large' and student_count >= 40000; all grade 2.")

add("district", "Denver Public Schools", "district", D(("0803360", 2)),
    "Reading: Denver Public Schools, NCES name 'School District No. 1 in the county of Denver...' (0803360).")

add("district", "MCPS Maryland", "district", D(("2400480", 2)),
    "Reading: Montgomery County Public Schools, MD (2400480).")

add("district", "DPSCD", "district", D(("2601103", 2)),
    "Reading: Detroit Public Schools Community District (2601103).")

add("district", "Seatle public schools", "district", D(("5307710", 2)),
    "Reading: misspelled Seattle Public Schools, NCES 'Seattle School District No. 1' (5307710).")

add("district", "South Dakota districts that depend heavily on federal funding", "district",
    districts_sql("select d.fed_id, case when s.federal_revenue_share_pct >= 40 then 2 else 1 end from districts d "
                  "join district_annual_stats s on s.district_id = d.id and s.school_year_start = 2020 "
                  "where d.state = 'SD' and s.federal_revenue_share_pct >= 30 order by 1"),
    "Rule: state = 'SD' and federal_revenue_share_pct (F-33 FY2021, school_year_start = 2020) >= 30; grade 2 when >= 40, "
    "grade 1 for 30-40.",
    {"state": "SD"})

add("district", "tiny remote rural districts with under 100 students", "district",
    districts_sql("select fed_id, 2 from districts where state = 'WA' and locale_type = 'Rural: Remote' "
                  "and student_count < 100 and district_type like 'Regular public school district%' order by 1"),
    "Rule (with the WA filter): state = 'WA' and locale_type = 'Rural: Remote' and student_count < 100 and "
    "district_type like 'Regular public school district%'; all grade 2.",
    {"state": "WA"})

add("district", "fastest growing school districts in Texas", "district",
    districts_sql("select d.fed_id, 2 from districts d join district_annual_stats a on a.district_id = d.id and "
                  "a.school_year_start = 2019 join district_annual_stats b on b.district_id = d.id and b.school_year_start = 2023 "
                  "where d.state = 'TX' and b.total_enrollment >= 10000 and b.total_enrollment >= a.total_enrollment * 1.25 "
                  "and d.district_type like 'Regular public school district%' order by 1"),
    "Rule: TX regular districts with >= 10,000 students in 2023-24 whose enrollment grew >= 25 % from 2019-20 "
    "(total_enrollment of school_year_start 2023 >= 1.25 x that of 2019); all grade 2.")

add("district", "K-8 elementary districts in Santa Clara County", "district",
    districts_sql("select fed_id, 2 from districts where state = 'CA' and county ilike '%Santa Clara County%' "
                  "and grade_high = '08' and district_type like 'Regular public school district%' order by 1"),
    "Rule: state = 'CA' and county list includes Santa Clara County and grade_high = '08' and regular district type; all grade 2.")

# ---------------------------------------------------------------------------------------------------
# SCHOOLS
# ---------------------------------------------------------------------------------------------------
add("school", "early college high schools in Houston ISD", "school",
    schools_sql("select fed_id, case when name ilike '%early college%' then 2 else 1 end from schools "
                "where district_fed_id = '4823640' and (name ilike '%early college%' or name ilike '%middle college%') order by 1"),
    "Rule: schools of Houston ISD (district_fed_id = '4823640') named '%Early College%' grade 2; the two "
    "'Middle College H S at HCC' (dual-credit college campuses) grade 1.")

add("school", "charter high schools in Detroit", "school",
    schools_sql("select s.fed_id, case when s.grade_low in ('09','10') then 2 else 1 end from schools s "
                "join districts d on d.fed_id = s.district_fed_id where s.state = 'MI' and s.physical_city ilike 'detroit' "
                "and d.district_type = 'Independent charter district' and s.grade_high = '12' "
                "and s.grade_low in ('06','07','08','09','10') order by 1"),
    "Rule: MI schools with physical_city Detroit whose LEA is an 'Independent charter district' and grade_high = '12'; "
    "grade 2 when the span starts at 9 or 10 (a high school), grade 1 for 6-12/7-12/8-12 schools.")

add("school", "middle schools in Omaha Public Schools", "school",
    schools_sql("select fed_id, 2 from schools where district_fed_id = '3174820' and grade_low in ('05','06','07') "
                "and grade_high = '08' order by 1"),
    "Rule: district_fed_id = '3174820' (Omaha Public Schools) and grade span 05-08, 06-08 or 07-08; all grade 2.")

add("school", "TJ high school for science and tech in Fairfax", "school", S(("510126002034", 2)),
    "Reading: Thomas Jefferson High School for Science and Technology, Fairfax County (510126002034); "
    "Richmond's Thomas Jefferson High is a different school and not relevant.")

add("school", "Stuyvesant HS", "school", S(("360007702877", 2)),
    "Reading: Stuyvesant High School, New York City (360007702877).")

add("school", "Lowell High School San Francisco", "school", S(("063441005643", 2)),
    "Reading: Lowell High, San Francisco Unified (063441005643).")

add("school", "alternative schools in Seattle", "school",
    schools_sql("select fed_id, 2 from schools where state = 'WA' and physical_city ilike 'seattle' "
                "and school_type = 'Other/Alternative' order by 1"),
    "Rule: state = 'WA' and physical_city = Seattle and school_type = 'Other/Alternative' (NCES 2023-24); all grade 2.")

add("school", "special education schools in LAUSD", "school",
    schools_sql("select fed_id, 2 from schools where district_fed_id = '0622710' and school_type = 'Special Education' order by 1"),
    "Rule: district_fed_id = '0622710' and school_type = 'Special Education'; all grade 2.")

add("school", "vocational technical schools in Miami-Dade", "school",
    schools_sql("select fed_id, 2 from schools where district_fed_id = '1200390' and school_type = 'Vocational' order by 1"),
    "Rule: district_fed_id = '1200390' and school_type = 'Vocational'; all grade 2.")

add("school", "K-8 schools in Spokane", "school",
    schools_sql("select fed_id, 2 from schools where state = 'WA' and physical_city ilike 'spokane' "
                "and grade_levels in ('KG-08','PK-08') order by 1"),
    "Rule: state = 'WA' and physical_city = Spokane and grade_levels in ('KG-08','PK-08'); all grade 2.")

add("school", "biggest high schools in Florida", "school",
    schools_sql("select fed_id, case when rn <= 5 then 2 else 1 end from (select fed_id, row_number() over "
                "(order by student_count desc) rn from schools where state = 'FL' and grade_low = '09' and grade_high = '12' "
                "and student_count is not null) x where rn <= 10 order by rn"),
    "Rule: FL schools with grade span 09-12 ranked by student_count (2022-23 counts): top 5 grade 2, ranks 6-10 grade 1.",
    {"state": "FL"})

add("school", "elem schools in Ann Arbor", "school",
    schools_sql("select fed_id, 2 from schools where state = 'MI' and physical_city ilike 'ann arbor' "
                "and grade_high = '05' order by 1"),
    "Rule: state = 'MI' and physical_city = Ann Arbor and grade_high = '05' (elementary span ending at grade 5); all grade 2.")

add("school", "high schools in Boise Idaho", "school",
    schools_sql("select fed_id, case when name ~* 'virtual|isucceed|janss' then 1 else 2 end from schools "
                "where state = 'ID' and physical_city ilike 'boise' and grade_low in ('09','10') and grade_high = '12' order by 1"),
    "Rule: state = 'ID' and physical_city = Boise and grade span 09-12 or 10-12 (NCES 2019-20 list; Timberline is 10-12); comprehensive high schools "
    "grade 2, the virtual and alternative programs (iSucceed, Robert Janss) grade 1.")

add("school", "Walter Payton college prep", "school", S(("170993003989", 2)),
    "Reading: Payton College Preparatory HS, Chicago (170993003989).")

add("school", "preschool-only public schools in Michigan", "school",
    schools_sql("select fed_id, 2 from schools where state = 'MI' and grade_levels = 'PK-PK' order by 1"),
    "Rule: state = 'MI' and grade_levels = 'PK-PK'; all grade 2.")

add("school", "high schools in Omaha", "school",
    schools_sql("select fed_id, case when name ilike '%NCYF%' then 1 else 2 end from schools where state = 'NE' "
                "and physical_city ilike 'omaha' and grade_low in ('09','10') and grade_high = '12' order by 1"),
    "Rule: state = 'NE' and physical_city = Omaha and grade span 09-12 (any district: Omaha, Millard, Elkhorn, Westside); "
    "grade 2, except the youth-facility school NCYF Community High grade 1.")

add("school", "Lincoln High in Tacoma", "school", S(("530870001476", 2)),
    "Reading: Lincoln High School, Tacoma School District (530870001476).")

add("school", "Anchorage middle schools", "school",
    schools_sql("select fed_id, 2 from schools where district_fed_id = '0200180' and grade_low in ('06','07') "
                "and grade_high = '08' order by 1"),
    "Rule: district_fed_id = '0200180' (Anchorage School District) and grade span 06-08 or 07-08; all grade 2.")

add("school", "Lane Tech", "school", S(("170993000942", 2)),
    "Reading: Lane Technical High School, Chicago (170993000942).",
    {"state": "IL"})

add("school", "middle schools in Omaha suburbs", "school",
    schools_sql("select fed_id, 2 from schools where state = 'NE' and physical_city ilike 'omaha' "
                "and grade_low in ('05','06','07') and grade_high = '08' and district_fed_id <> '3174820' order by 1"),
    "Rule: state = 'NE' and physical_city = Omaha and grade span 05/06/07-08 and district_fed_id <> '3174820' "
    "(middle schools of Millard, Elkhorn, Gretna and Westside with an Omaha address); all grade 2.")

add("school", "magnet elementary schools", "school",
    schools_sql("select fed_id, 2 from schools where district_fed_id = '3174820' and name ilike '%magnet%' "
                "and grade_high in ('04','05','06') order by 1"),
    "Rule (with the Omaha Public Schools district filter): district_fed_id = '3174820' and name ilike '%magnet%' and "
    "grade_high in ('04','05','06') (the name is the only magnet signal in the 2019-20 list); all grade 2.",
    {"district_fed_id": "3174820"})

# ---------------------------------------------------------------------------------------------------
# CONTACTS (state directory people only)
# ---------------------------------------------------------------------------------------------------
add("contact", "Los Angeles Unified superintendent", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '0622710' and c.title = 'Superintendent'"),
    "Reading: the CDE-listed superintendent of Los Angeles Unified (0622710).")

add("contact", "San Diego Unified supt", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '0634320' and c.title = 'Superintendent'"),
    "Reading: the CDE-listed superintendent of San Diego Unified (0634320).")

add("contact", "superintendents of the biggest California districts (over 60,000 students)", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.state = 'CA' "
                 f"and c.title = 'Superintendent' and d.student_count > 60000 order by d.student_count desc"),
    "Rule: CDE superintendents (title = 'Superintendent') of CA districts with student_count > 60000; all grade 2.")

add("contact", "Oakland Unified superintendent", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '0628050' and c.title = 'Superintendent'"),
    "Reading: the CDE-listed superintendent of Oakland Unified (0628050).")

add("contact", "Fresno county superintendent of schools", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '0691007' and c.title = 'County Superintendent'"),
    "Reading: the County Superintendent of the Fresno County Office of Education (0691007); the Fresno Unified "
    "superintendent is a different office and not relevant.")

add("contact", "principal of Payton College Prep", "contact",
    contacts_sql(f"select {CONTACT_COLS_SCHOOL}, 2 {CONTACT_FROM_SCHOOL} and s.fed_id = '170993003989'"),
    "Reading: the ISBE-listed principal of Payton College Preparatory HS (170993003989).")

add("contact", "Springfield IL District 186 superintendent", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '1737080' and c.title = 'Superintendent'"),
    "Reading: the ISBE-listed superintendent of Springfield SD 186 (1737080).")

add("contact", "high school principals in Naperville", "contact",
    contacts_sql(f"select {CONTACT_COLS_SCHOOL}, case when s.name ilike '%alternative%' or s.name ilike '%youth center%' "
                 f"then 1 else 2 end {CONTACT_FROM_SCHOOL} and s.state = 'IL' and s.physical_city ilike 'naperville' "
                 f"and s.grade_high = '12' order by 3"),
    "Rule: ISBE principals of IL schools with physical_city Naperville and grade_high = '12'; comprehensive high "
    "schools (Naperville Central, Naperville North, Neuqua Valley) grade 2, the alternative school and the "
    "Illinois Youth Center grade 1.")

add("contact", "Chicago Public Schools CEO / superintendent", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '1709930' and c.title = 'Superintendent'"),
    "Reading: the ISBE-listed superintendent of Chicago Public Schools Dist 299 (1709930).")

add("contact", "principals of elementary schools in Evanston", "contact",
    contacts_sql(f"select {CONTACT_COLS_SCHOOL}, case when s.grade_levels = 'KG-05' then 2 else 1 end {CONTACT_FROM_SCHOOL} "
                 f"and s.state = 'IL' and s.physical_city ilike 'evanston' and s.grade_low in ('KG','PK','01','02') "
                 f"and s.grade_high in ('05','08') and s.grade_levels <> 'PK-PK' order by 3"),
    "Rule: ISBE principals of IL schools in Evanston whose span starts at PK-2 and ends at 5 or 8; KG-05 schools "
    "grade 2, K-8 and 2-8 schools grade 1 (middle schools 6-8, the PK centre and the high schools excluded).")

add("contact", "superintendents in Peoria County IL", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, case when d.county = 'Peoria County' then 2 else 1 end "
                 f"{CONTACT_FROM_DISTRICT} and d.state = 'IL' and c.title = 'Superintendent' "
                 f"and d.county ilike '%Peoria County%' order by 2"),
    "Rule: ISBE superintendents of IL districts whose county list includes Peoria County; grade 2 when Peoria is the "
    "only county, grade 1 when the district spans other counties too.")

add("contact", "Rockford high school principals", "contact",
    contacts_sql(f"select {CONTACT_COLS_SCHOOL}, case when s.grade_levels = '09-12' and s.name ilike '%high school%' then 2 "
                 f"else 1 end {CONTACT_FROM_SCHOOL} and s.district_fed_id = '1734510' and s.grade_high = '12' "
                 f"and s.name not ilike '%detention%' order by 3"),
    "Rule: ISBE principals of Rockford SD 205 schools (district_fed_id = '1734510') with grade_high = '12'; the four "
    "9-12 high schools grade 2, the alternative Roosevelt Center and the K-12 charter grade 1, the county detention "
    "centre excluded.")

add("contact", "Jill Baker Long Beach", "contact",
    contacts_sql(f"select {CONTACT_COLS_DISTRICT}, 2 {CONTACT_FROM_DISTRICT} and d.fed_id = '0622500' and c.name = 'Jill Baker'"),
    "Reading: a person lookup by name: Jill Baker, superintendent of Long Beach Unified (0622500).")

# ---------------------------------------------------------------------------------------------------
# NEWS (answer = the district the article is about; source_url = the article)
# ---------------------------------------------------------------------------------------------------
NJ = "Reading of bench/labelled/news/items.jsonl summaries: "

add("news", "voters approved a school construction bond", None,
    N(("n001", "0617490", 2), ("n002", "4817760", 2), ("n069", "2718940", 2), ("n070", "3803060", 2),
      ("n071", "1718990", 2), ("n073", "5306900", 2), ("n164", "0624540", 2), ("n072", "4812180", 2),
      ("n072", "4800010", 2), ("n074", "0635220", 2), ("n072", "1729010", 1),
      ("n137", "2614820", 1), ("n035", "4835100", 1)),
    NJ + "every district whose bond the article reports as passed or passing (n001, n002, n069, n070, n071, n073, "
    "n164; Burleson and Hays in n072; San Ysidro in n074) grade 2; Glenbrook 225 ('appeared to pass') and "
    "districts spending from a bond passed earlier (Fraser n137, Plano n035) grade 1; failed or not-yet-called bonds not relevant.")

add("news", "school district hit by a ransomware attack", None,
    N(("n132", "0402860", 2), ("n133", "3702040", 2), ("n134", "0101920", 2), ("n135", "3501500", 2)),
    NJ + "the four items about a ransomware attack on a district (Flagstaff, Haywood County, Jefferson County AL, Las Cruces).")

add("news", "district looking for a new student information system vendor", None,
    N(("n061", "0634620", 2), ("n062", "0627240", 2)),
    NJ + "the two RFPs for a student information system (San Juan Unified, Newport-Mesa Unified).")

add("news", "superintendent announced plans to retire", None,
    N(("n101", "5400750", 2), ("n102", "1930240", 2), ("n103", "2802790", 2), ("n104", "0635670", 2),
      ("n105", "2012990", 2), ("n106", "1917220", 2), ("n107", "2926850", 2), ("n145", "5101440", 1)),
    NJ + "every item whose subject is a sitting superintendent announcing retirement (n101-n107); resignations, "
    "suspensions, searches and contracts are not retirements; Franklin County VA, whose superintendent put off his "
    "retirement during a paused search (n145), grade 1.")

add("news", "state takeover put a new superintendent in charge", None,
    N(("n042", "4823640", 2)),
    NJ + "the Texas Education Agency takeover of Houston ISD with an appointed superintendent (n042).")

add("news", "district adopted Schoology as its learning management system", None,
    N(("n098", "2931110", 2), ("n099", "3904702", 2), ("n100", "2507110", 2)),
    NJ + "the three items about choosing Schoology (Washington MO, Dublin OH, Lynn MA).")

add("news", "board approved buying Chromebooks for students", None,
    N(("n033", "2928860", 2), ("n035", "4835100", 2), ("n152", "2007620", 2), ("n034", "3418060", 1),
      ("n094", "4700660", 1)),
    NJ + "approved student Chromebook purchases (Springfield R-XII, Plano, Hutchinson USD 308) grade 2; "
    "Winslow's warranty/rolling upgrade plan and Clay County TN's purchase of 12 Chromebooks (a side item) grade 1.")

add("news", "replacing classroom projectors with interactive flat panels", None,
    N(("n139", "2709440", 2), ("n136", "2005460", 2), ("n152", "2007620", 2), ("n138", "5100090", 1)),
    NJ + "purchases of interactive panels/boards (ROCORI, Derby SmartBoards, Hutchinson Clear Touch panels) grade 2; "
    "Albemarle's classroom display replacement funded from its balance grade 1.")

add("news", "not enough school bus drivers", None,
    N(("n043", "2102990", 2), ("n141", "2314190", 2), ("n140", "3701500", 2), ("n140", "2101470", 2),
      ("n140", "1709930", 2)),
    NJ + "bus driver shortages: JCPS (n043; n044 is the same district), MSAD 55 (n141) and the three districts of n140.")

add("news", "21st Century Community Learning Centers after-school grant", None,
    N(("n065", "4203750", 2), ("n067", "5304740", 2), ("n068", "4204710", 2), ("n066", "2711130", 1),
      ("n066", "2709720", 1), ("n066", "2711910", 1)),
    NJ + "21st CCLC grants awarded (River Valley PA, Manson WA, California Area PA) grade 2; the three Minnesota "
    "co-applicants of n066 (applied, not awarded) grade 1.")

add("news", "district soliciting bids from food service management companies", None,
    N(("n059", "4222600", 2), ("n060", "1600300", 2), ("n064", "2700167", 2)),
    NJ + "the three food service management RFPs (Springfield PA, Blaine County ID, Math and Science Academy MN).")

add("news", "district seeking architects for school building projects", None,
    N(("n056", "3304590", 2), ("n057", "3904681", 2), ("n058", "0504590", 2)),
    NJ + "the three requests for architecture/design firms (Manchester NH, Perkins OH, Conway AR).")

add("news", "closing elementary schools because enrollment keeps falling", None,
    N(("n018", "3905021", 2), ("n019", "0627810", 2), ("n020", "2621840", 2), ("n021", "0613140", 2)),
    NJ + "the four votes to close elementary buildings after enrollment decline (Maplewood OH, Oak Grove, Livonia, Evergreen).")

add("news", "state comptroller audit says the district kept too much fund balance", None,
    N(("n157", "3620040", 2), ("n158", "3629070", 2), ("n159", "3619740", 2)),
    NJ + "the three New York State Comptroller audits of over-budgeting and excess fund balance.")

add("news", "job cuts as pandemic relief money runs out", None,
    N(("n167", "4819700", 2), ("n167", "2400420", 2), ("n142", "4109480", 2)),
    NJ + "deficits tied to the end of ESSER money: Fort Worth and Howard County (n167), Parkrose (n142).")

add("news", "Detroit chronic absenteeism", None,
    N(("n128", "2601103", 2)),
    NJ + "DPSCD is the district of the three Detroit absenteeism items (n127-n129); the entity is what counts, any of "
    "their urls is an acceptable source.")

add("news", "district picking a new math curriculum", None,
    N(("n013", "0802400", 2), ("n014", "0404720", 2), ("n152", "2007620", 2), ("n086", "2721240", 1)),
    NJ + "math adoptions: Bayfield (Carnegie Learning), Maricopa Unified, Hutchinson (Reveal Math) grade 2; Minneapolis, "
    "whose budget lists new math curricula without funding them, grade 1.")

add("news", "moving to science of reading materials", None,
    N(("n083", "5302130", 2), ("n082", "2606870", 2), ("n084", "2509990", 1), ("n085", "4602070", 1),
      ("n086", "2721240", 1), ("n154", "2006420", 1)),
    NJ + "explicit moves to science-of-reading/structured literacy (Dieringer, Brighton) grade 2; literacy adoptions "
    "or reviews that do not say so (Reading MA Amplify ELA, Aberdeen SD with UFLI, Minneapolis seeking an evidence-based "
    "replacement, Gardner Edgerton's CKLA/Into Reading shortlist) grade 1.")

add("news", "one-time staff bonuses paid from a budget surplus", None,
    N(("n093", "5603770", 2), ("n094", "4700660", 2), ("n095", "4602070", 2), ("n096", "3200390", 2),
      ("n097", "2612600", 2)),
    NJ + "the five items about one-time employee bonuses from surplus or unexpected money.")

add("news", "shortage of special education teachers", None,
    N(("n155", "0623080", 2), ("n091", "3200480", 2), ("n156", "2010140", 2), ("n156", "2012000", 2),
      ("n090", "1720490", 1), ("n090", "4503480", 1), ("n005", "2927060", 1), ("n005", "1201320", 1)),
    NJ + "districts reported short of special education teachers (Lucia Mar, Washoe, Olathe and Blue Valley in n156) "
    "grade 2; the schools of n090 that could not fill special-ed/support posts and the general teacher shortage of "
    "n005 (special education named as hardest) grade 1.")

add("news", "corporate foundation gave the district a STEM grant", None,
    N(("n160", "1708550", 2), ("n162", "2738190", 2), ("n163", "4214460", 2), ("n161", "3703930", 1),
      ("n171", "4108010", 1)),
    NJ + "STEM grants from company foundations (Motorola, 3M, Bayer Fund) grade 2; robotics grants from FIRST and a "
    "tribal community fund grade 1.")

add("news", "enrollment growth forcing portable classrooms", None,
    N(("n121", "4830570", 2), ("n119", "3704720", 2), ("n120", "3200060", 1), ("n120", "4101920", 1),
      ("n120", "4820010", 1)),
    NJ + "growth with portables/over-capacity (Midland ISD, Wake County) grade 2; the three fast-growing districts "
    "planning by projections in n120 grade 1.")

add("news", "federal school violence prevention grant for cameras and door access", None,
    N(("n144", "4843720", 2), ("n144", "4828650", 2)),
    NJ + "the Justice Department security grants to Uvalde CISD and Lytle ISD (n144).")

add("news", "bus driver shortage before school starts", None,
    N(("n043", "2102990", 2)),
    NJ + "with the JCPS district filter the answer is Jefferson County KY (2102990), whose shortage items are n043 "
    "(250 drivers short a week before school) and n044 (driver call-outs); either url is an acceptable source.",
    {"district_fed_id": "2102990"})

# ---------------------------------------------------------------------------------------------------
# split and write
# ---------------------------------------------------------------------------------------------------


def main():
    out, counters = [], {}
    for n, (kind, d) in enumerate(Q, 1):
        i = counters.get(kind, 0)
        counters[kind] = i + 1
        split = "heldout" if i % 5 in (1, 3) else "dev"  # 2 of every 5 per kind held out
        if not d["relevant"]:
            sys.exit(f"query without relevant records: {d['query']}")
        rec = {"id": f"q{n:03d}", "split": split}
        rec.update(d)
        out.append(rec)
    doc = {
        "version": 1,
        "description": ("Judged relevance set for POST /semantic-search over edm_scratch (NCES CCD, Census SAIPE, "
                        "CDE/ISBE state directories) and the 171 labelled news items of bench/labelled/news. "
                        "entity_type null = news-text query whose answer is the district an article is about "
                        "(source_url = the article). Grades: 2 exactly what was asked, 1 partially relevant. "
                        "'heldout' queries are for final scoring only, never for tuning. See bench/relevance/README.md."),
        "queries": out,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    by = {}
    for (kind, _), r in zip(Q, out):
        by.setdefault((kind, r["split"]), 0)
        by[(kind, r["split"])] += 1
    print(len(out), "queries;", sorted(by.items()))


if __name__ == "__main__":
    main()
