#!/usr/bin/env bash
# Builds filters + privacy-lab and runs the privacy experiments.
#   privacy-lab/run.sh [exp1|exp2|exp3|exp4|exp5|exp6|exp7|exp8|all] [--out DIR] [--seed N] [--quick|--full] [--threads N]
# e.g. privacy-lab/run.sh all --quick --out /tmp/lab      (seconds)
#      privacy-lab/run.sh all --out privacy-lab/results     (full mode; regenerates the committed results)
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: privacy-lab/run.sh [exp1|exp2|exp3|exp4|exp5|exp6|exp7|exp8|all]... [--out DIR] [--seed N] [--quick|--full] [--threads N]
Builds filters + privacy-lab, then runs the named experiments (default: all).
  --out DIR     where the reports, CSVs and plots go (default privacy-lab-out)
  --seed N      the random seed (default 2014; the committed results use 2014)
  --quick       small universes and few clients: a few minutes (the tests run experiments this way)
  --full        the full mode (the default): regenerates privacy-lab/results
  --threads N   worker threads (default: all processors)
  -h, --help    this text
Exit status: 0 on success, 2 on bad arguments.
USAGE
}
for a in "$@"; do
  case "$a" in -h | --help) usage; exit 0 ;; esac
done
cd "$(dirname "$0")/.."
# The goal's parameter is read from -DincludeScope (-Dmdep.includeScope is ignored and gave every
# scope, test jars included). runtime = compile + runtime scopes.
./mvnw -B -q -pl privacy-lab -am package -DskipTests dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/classpath.txt >&2
exec java -Djava.awt.headless=true -cp "privacy-lab/target/classes:$(cat privacy-lab/target/classpath.txt)" \
  org.blockfilter.privacylab.PrivacyLab "$@"
