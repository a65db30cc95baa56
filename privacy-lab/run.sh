#!/usr/bin/env bash
# Builds filters + privacy-lab and runs the privacy experiments.
#   privacy-lab/run.sh [exp1|exp2|exp3|exp4|exp5|exp6|exp7|exp8|all] [--out DIR] [--seed N] [--quick|--full] [--threads N]
# e.g. privacy-lab/run.sh all --quick --out /tmp/lab      (seconds)
#      privacy-lab/run.sh all --out privacy-lab/results     (full mode; regenerates the committed results)
set -euo pipefail
cd "$(dirname "$0")/.."
# The goal's parameter is read from -DincludeScope (-Dmdep.includeScope is ignored and gave every
# scope, test jars included). runtime = compile + runtime scopes.
./mvnw -B -q -pl privacy-lab -am package -DskipTests dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/classpath.txt >&2
exec java -Djava.awt.headless=true -cp "privacy-lab/target/classes:$(cat privacy-lab/target/classpath.txt)" \
  org.blockfilter.privacylab.PrivacyLab "$@"
