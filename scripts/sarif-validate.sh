#!/usr/bin/env bash
# Validates the SARIF logs the check's tests wrote (target/tmp/sarif/, crates/fluxlens-check/
# tests/sarif.rs) with Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool-linux, pinned
# in package.json): the SARIF 2.1.0 schema and the tool's own error and warning rules. First it
# proves the validator can fail: a log with a zero line and an unknown property is refused.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
[ -x "$tool" ] || chmod u+x "$tool"
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
logs=(target/tmp/sarif/*.sarif)
[ "${#logs[@]}" -ge 2 ] && [ -f "${logs[0]}" ] || { echo "sarif: no logs to validate (run cargo test -p fluxlens-check first)"; exit 1; }
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
# Errors and warnings in the validator's own output log (its notes are advice, not faults).
# Run without a network where a user namespace allows it: the Multitool looks up the logs' help
# URIs, and where no DNS answers each log waited ≈ 10 s for nothing (the schema and rules are
# built in; a run offline reports the same faults).
offline=(); unshare -rn true 2>/dev/null && offline=(unshare -rn)
faults() {
  "${offline[@]}" "$tool" validate "$1" -o "$scratch/out.sarif" --level "Error;Warning" --log ForceOverwrite >/dev/null
  python3 - "$scratch/out.sarif" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
for r in run.get("results", []):
    print(r["ruleId"], r.get("level"), ", ".join(r["message"].get("arguments", [])))
for n in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
    print("tool:", n["message"]["text"])
PY
}
python3 - "${logs[0]}" "$scratch/broken.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
result = {"ruleId": "X", "message": {"text": "x"}, "bogus": 1,
          "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.yaml"}, "region": {"startLine": 0}}}]}
log["runs"][0]["results"].append(result)
json.dump(log, open(sys.argv[2], "w"))
PY
[ -n "$(faults "$scratch/broken.sarif")" ] || { echo "sarif: the validator passed a broken log"; exit 1; }
for log in "${logs[@]}"; do
  found=$(faults "$log")
  [ -z "$found" ] || { echo "sarif: $log is not valid SARIF 2.1.0:"; echo "$found"; exit 1; }
done
echo "sarif: ${#logs[@]} logs valid SARIF 2.1.0 (SARIF Multitool $(node -p 'require("@microsoft/sarif-multitool-linux/package.json").version'))"
