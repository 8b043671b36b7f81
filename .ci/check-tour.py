"""Checks the tour's --json report: every scenario, every paradigm, every result as documented.

An empty or partial report fails: `all(...)` over nothing would pass.
"""

import json
import sys

SCENARIOS = {"counter", "derived", "diamond", "list", "search", "teardown"}
PARADIGMS = {"SignalGraph", "Glue", "Incremental", "Resin", "Cycle", "Signals", "Baseline"}

report = json.load(open(sys.argv[1]))
problems = []
scenarios = {scenario["id"]: scenario for scenario in report["scenarios"]}
if set(scenarios) != SCENARIOS:
    problems.append(f"scenarios {sorted(scenarios)}, expected {sorted(SCENARIOS)}")
for name, scenario in scenarios.items():
    paradigms = [result["paradigm"] for result in scenario["results"]]
    if sorted(paradigms) != sorted(PARADIGMS):
        problems.append(f"{name}: results for {paradigms}, expected one for each of {sorted(PARADIGMS)}")
    for result in scenario["results"]:
        if result["asDocumented"] is not True:
            problems.append(f"{name}/{result['paradigm']}: not as documented: {result['observed']}")
for problem in problems:
    print("tour:", problem)
if problems:
    sys.exit(1)
print(f"tour: {len(scenarios)} scenarios x {len(PARADIGMS)} paradigms, every result as documented")
