#!/usr/bin/env python3
"""Check data/hosted_api_aliases.csv against LiteLLM's price table and print it.

Usage:
  scripts/hosted-api-prices.py PRICES [ALIASES_CSV] [--model ID]

PRICES is LiteLLM's model_prices_and_context_window_backup.json, or the litellm
wheel itself (the JSON is read from inside it). ALIASES_CSV defaults to
data/hosted_api_aliases.csv next to this script's repo.

For every row it checks that the litellm_key exists, that its litellm_provider
is the row's provider, that its mode is chat or completion, and that
input_cost_per_token / output_cost_per_token x 1e6 equal the row's prices.
It prints the rows, then every mismatch, and exits 1 if there was any.

Given the wheel, it also checks data/hosted_api_providers.csv: every provider
the aliases name has the display name LiteLLM gives it in
litellm/provider_endpoints_support_backup.json (without its " (`id`)" tail),
or, for an id that file does not list (bedrock_converse, vertex_ai-llama_models),
the name of the longest listed id it starts with (bedrock, vertex_ai).
--write-providers rewrites that CSV from the wheel instead of checking it.
Standard library only. The pinned version is named in data/hosted_api_aliases.md.
"""
import csv
import hashlib
import json
import math
import os
import re
import sys
import zipfile

MEMBER = "litellm/model_prices_and_context_window_backup.json"
PROVIDERS_MEMBER = "litellm/provider_endpoints_support_backup.json"


def load_prices(path):
    with open(path, "rb") as f:
        raw = f.read()
    if path.endswith(".whl") or raw[:2] == b"PK":
        with zipfile.ZipFile(path) as z:
            raw = z.read(MEMBER)
    return json.loads(raw), hashlib.sha256(raw).hexdigest()


def provider_names(wheel, ids):
    """{id: (display name, the listed id it is LiteLLM's name of)} for ids."""
    with zipfile.ZipFile(wheel) as z:
        raw = z.read(PROVIDERS_MEMBER)
    listed = json.loads(raw)["providers"]
    names = {}
    for provider in ids:
        parents = [k for k in listed if provider.startswith(k) and listed[k].get("display_name")]
        if not parents:
            continue
        entry = max(parents, key=len)
        names[provider] = (re.sub(r" \(`[^`]*`\)$", "", listed[entry]["display_name"]), entry)
    return names, hashlib.sha256(raw).hexdigest()


def same(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    only = None
    if "--model" in argv:
        i = argv.index("--model")
        only = argv[i + 1]
        args.remove(only)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    csv_path = args[1] if len(args) > 1 else os.path.join(here, "..", "data", "hosted_api_aliases.csv")
    prices, digest = load_prices(args[0])
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))

    problems = []
    shown = 0
    width = max(len(r["litellm_key"]) for r in rows)
    print("%-32s %-*s %-24s %9s %9s  %s" % ("model_id", width, "litellm_key", "provider", "in $/M", "out $/M", "note"))
    for n, r in enumerate(rows, start=2):
        key = r["litellm_key"]
        e = prices.get(key)
        where = "line %d (%s, %s)" % (n, r["model_id"], key)
        if not isinstance(e, dict):
            problems.append(where + ": key not in the price table")
        else:
            if e.get("litellm_provider") != r["provider"]:
                problems.append(where + ": provider %r, table says %r" % (r["provider"], e.get("litellm_provider")))
            if (e.get("deprecation_date") or "") != r["deprecation_date"]:
                problems.append(where + ": deprecation_date %r, table says %r" % (r["deprecation_date"], e.get("deprecation_date")))
            if e.get("mode") not in ("chat", "completion"):
                problems.append(where + ": mode %r" % e.get("mode"))
            for col, field in (("input_usd_per_mtok", "input_cost_per_token"), ("output_usd_per_mtok", "output_cost_per_token")):
                got = e.get(field)
                want = float(r[col])
                if not isinstance(got, (int, float)) or got <= 0:
                    problems.append(where + ": %s is %r" % (field, got))
                elif not same(got * 1e6, want):
                    problems.append(where + ": %s %s, table says %.10g" % (col, r[col], got * 1e6))
        if only is None or r["model_id"] == only:
            shown += 1
            print("%-32s %-*s %-24s %9s %9s  %s" % (r["model_id"], width, key, r["provider"],
                                                    r["input_usd_per_mtok"], r["output_usd_per_mtok"], r["note"]))

    if args[0].endswith(".whl"):
        providers_csv = os.path.join(os.path.dirname(csv_path), "hosted_api_providers.csv")
        ids = sorted({r["provider"] for r in rows})
        names, names_digest = provider_names(args[0], ids)
        problems += ["provider %s: no display name in %s" % (i, PROVIDERS_MEMBER) for i in ids if i not in names]
        if "--write-providers" in argv:
            with open(providers_csv, "w", newline="") as f:
                out = csv.writer(f, lineterminator="\n")
                out.writerow(["provider", "name", "litellm_entry"])
                for i in ids:
                    if i in names:
                        out.writerow([i, names[i][0], names[i][1]])
        with open(providers_csv, newline="") as f:
            have = {r["provider"]: r for r in csv.DictReader(f)}
        for i in ids:
            if i in names and (have.get(i, {}).get("name"), have.get(i, {}).get("litellm_entry")) != names[i]:
                problems.append("%s: provider %s is named %r, LiteLLM says %r" % (providers_csv, i, have.get(i, {}).get("name"), names[i]))
        print("provider names: %s (sha256 %s), %d providers" % (PROVIDERS_MEMBER, names_digest, len(ids)))

    models = sorted({r["model_id"] for r in rows})
    print()
    print("price table: %s (sha256 %s)" % (args[0], digest))
    print("aliases: %s: %d rows, %d catalog models, %d shown" % (csv_path, len(rows), len(models), shown))
    if problems:
        print("%d mismatch(es):" % len(problems))
        for p in problems:
            print("  " + p)
        return 1
    print("OK: every litellm_key exists with the same provider, mode, prices and deprecation date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
