#!/usr/bin/env python3
"""Checks bench/relevance/semantic-queries.json against its format and against edm_scratch.

- format: version 1, unique ids q001..., split dev|heldout, entity_type district|school|contact|null,
  filters only state/district_fed_id/school_fed_id, grades 1|2, >= 1 relevant record per query,
  no duplicate relevant keys within a query, judged present;
- every district / school fed_id exists in districts / schools (fed_id is the key, never a uuid);
- every contact exists with that name, attached to that district (or to a school of that district) and school,
  with source = 'state_directory' and data_source <> 'demo';
- every source_url is an item of bench/labelled/news/items.jsonl whose truth.leaids holds that fed_id;
- every filter value exists, and every relevant record satisfies the query's state filter.

Usage (from the repository root): python3 bench/relevance/verify.py [file.json]   -> prints "OK ..." or the errors, exit 1.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PG = ["psql", "-h", os.environ.get("PGHOST", "127.0.0.1"), "-U", os.environ.get("PGUSER", "postgres"),
      "-d", os.environ.get("PGDATABASE", "edm_scratch"), "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c"]


def sql(q):
    out = subprocess.run(PG + [q], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line.strip()]


def lit(s):
    return "'" + s.replace("'", "''") + "'"


PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "bench", "relevance", "semantic-queries.json")
doc = json.load(open(PATH, encoding="utf-8"))
news = {}
for line in open(os.path.join(ROOT, "bench", "labelled", "news", "items.jsonl"), encoding="utf-8"):
    if line.strip():
        o = json.loads(line)
        news[o["url"]] = o

errors = []
err = errors.append
if doc.get("version") != 1:
    err("version must be 1")
qs = doc.get("queries", [])

dist_ids, school_ids, contacts = set(), set(), []
seen_ids = set()
for q in qs:
    qid = q.get("id")
    if qid in seen_ids:
        err(f"{qid}: duplicate id")
    seen_ids.add(qid)
    if q.get("split") not in ("dev", "heldout"):
        err(f"{qid}: split")
    if q.get("entity_type") not in ("district", "school", "contact", None):
        err(f"{qid}: entity_type")
    if not q.get("query") or not q.get("judged"):
        err(f"{qid}: query/judged missing")
    f = q.get("filters", {})
    if set(f) - {"state", "district_fed_id", "school_fed_id"}:
        err(f"{qid}: filter keys {set(f)}")
    if "district_fed_id" in f:
        dist_ids.add(f["district_fed_id"])
    if "school_fed_id" in f:
        school_ids.add(f["school_fed_id"])
    rel = q.get("relevant", [])
    if not rel:
        err(f"{qid}: no relevant record")
    keys = set()
    for r in rel:
        if r.get("grade") not in (1, 2):
            err(f"{qid}: grade {r.get('grade')}")
        et = r.get("entity_type")
        if et == "contact":
            k = (et, r["name"], r.get("district_fed_id"), r.get("school_fed_id"))
            contacts.append((qid, r))
        elif et in ("district", "school"):
            k = (et, r["fed_id"])
            (dist_ids if et == "district" else school_ids).add(r["fed_id"])
            if not (len(r["fed_id"]) == (7 if et == "district" else 12) and r["fed_id"].isdigit()):
                err(f"{qid}: malformed fed_id {r['fed_id']}")
        else:
            err(f"{qid}: relevant entity_type {et}")
            continue
        if k in keys:
            err(f"{qid}: duplicate relevant {k}")
        keys.add(k)
        if q.get("entity_type") and q["entity_type"] != et:
            err(f"{qid}: relevant {et} under a {q['entity_type']} query")
        if "source_url" in r:
            item = news.get(r["source_url"])
            if not item:
                err(f"{qid}: source_url not in items.jsonl: {r['source_url']}")
            elif r.get("fed_id") not in item["truth"]["leaids"]:
                err(f"{qid}: {r.get('fed_id')} is not a label of {item['id']}")

found_d = {r[0]: r[1] for r in sql("select fed_id, state from districts where fed_id in (" +
                                    ",".join(lit(x) for x in sorted(dist_ids)) + ")")}
found_s = {r[0]: r[1] for r in sql("select fed_id, state from schools where fed_id in (" +
                                    ",".join(lit(x) for x in sorted(school_ids)) + ")")}
for x in sorted(dist_ids - set(found_d)):
    err(f"district {x} not in districts")
for x in sorted(school_ids - set(found_s)):
    err(f"school {x} not in schools")

for qid, r in contacts:
    school_cond = ("c.school_id is null" if r.get("school_fed_id") is None else
                   f"s.fed_id = {lit(r['school_fed_id'])}")
    dist_cond = ("true" if r.get("district_fed_id") is None else
                 f"coalesce(d.fed_id, s.district_fed_id) = {lit(r['district_fed_id'])}")
    rows = sql("select c.state from contacts c left join districts d on d.id = c.district_id "
               "left join schools s on s.id = c.school_id "
               f"where c.name = {lit(r['name'])} and c.source = 'state_directory' and c.data_source <> 'demo' "
               f"and {school_cond} and {dist_cond}")
    if not rows:
        err(f"{qid}: contact not found (state_directory, non-demo): {r}")

# state filter consistency
for q in qs:
    st = q.get("filters", {}).get("state")
    if not st:
        continue
    for r in q["relevant"]:
        if r["entity_type"] == "district" and found_d.get(r["fed_id"]) not in (None, st):
            err(f"{q['id']}: district {r['fed_id']} outside filter state {st}")
        if r["entity_type"] == "school" and found_s.get(r["fed_id"]) not in (None, st):
            err(f"{q['id']}: school {r['fed_id']} outside filter state {st}")

if errors:
    print("\n".join(errors))
    sys.exit(1)
n_rel = sum(len(q["relevant"]) for q in qs)
print(f"OK {len(qs)} queries, {n_rel} relevant records ({len(found_d)} districts, {len(found_s)} schools, "
      f"{len(contacts)} contact judgements) exist in edm_scratch; news urls match items.jsonl")
