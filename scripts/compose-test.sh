#!/usr/bin/env bash
# compose.yaml as an operator runs it, with the app's image already built (scripts/container-test.sh
# calls it): `docker-compose up` brings PostgreSQL, the migration step, three replicas and nginx, and
# this checks that the migration ran once and ended, that the replicas are healthy and nginx shares
# requests among them, that a sign-up and a streamed generation go through and are stored in
# PostgreSQL, and that the site still answers with a replica killed.
# Docker Hub's postgres:15 and nginx:1.27 are used when Docker Hub answers; where it does not (CI here),
# stand-ins built from Debian's PostgreSQL 15 and nginx (tests/compose/), which behave as those do.
# Needs a running Docker daemon, docker-compose (Debian's, 1.29) or Docker's compose plugin, and node.
# Usage: bash scripts/compose-test.sh [APP_IMAGE]   (default impact-narrative-studio:test)
set -euo pipefail
cd "$(dirname "$0")/.."

app_image=${1:-impact-narrative-studio:test}
project=ins-compose-test-$$
work=$(mktemp -d)

if command -v docker-compose >/dev/null 2>&1; then compose_cmd=(docker-compose)
elif docker compose version >/dev/null 2>&1; then compose_cmd=(docker compose)
else echo "FAIL: neither docker-compose nor 'docker compose' is installed" >&2; exit 1; fi
compose() { "${compose_cmd[@]}" -p "$project" --env-file "$work/.env" -f compose.yaml -f "$work/override.yaml" "$@"; }

cleanup() {
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  echo "--- the services, and their last log lines" >&2
  compose ps >&2 2>&1 || true
  compose logs --no-color --tail 15 2>&1 | cut -c1-300 >&2 || true
  exit 1
}
ok() { echo "ok: $*"; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
seconds_since() { awk -v ms=$(($(now_ms) - $1)) 'BEGIN { printf "%.1f", ms / 1000 }'; }
free_port() { node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"; }
container() { compose ps -q "$1"; }
# Until `$2` holds, at most `$1` seconds.
wait_for() {
  local seconds=$1 started
  started=$(now_ms)
  until eval "$2"; do
    [ $(($(now_ms) - started)) -lt $((seconds * 1000)) ] || return 1
    sleep 0.5
  done
}

# The image compose.yaml names, or its stand-in (built from tests/compose/NAME.Dockerfile).
image_for() {
  local image=$1 standin=ins-standin-$1
  if docker image inspect "$image" >/dev/null 2>&1 || docker pull -q "$image" >/dev/null 2>&1; then echo "$image"; return; fi
  docker image inspect "$standin" >/dev/null 2>&1 \
    || docker build --network host -q -t "$standin" -f "tests/compose/${image%%:*}.Dockerfile" tests/compose >"$work/build.log" 2>&1 \
    || return 1
  echo "$standin"
}

docker image inspect "$app_image" >/dev/null 2>&1 || fail "no image $app_image: build it first (scripts/container-test.sh does)"
started=$(now_ms)
db_image=$(image_for postgres:15) || fail "neither postgres:15 nor its stand-in could be had"
nginx_image=$(image_for nginx:1.27) || fail "neither nginx:1.27 nor its stand-in could be had"
ok "images: $db_image and $nginx_image, in $(seconds_since "$started") s"

port=$(free_port)
origin="http://localhost:$port"
cat >"$work/.env" <<ENV
POSTGRES_PASSWORD=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
SESSION_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
SMTP_URL=smtp://127.0.0.1:1
APP_ORIGIN=$origin
HTTP_PORT=$port
HTTP_BIND=127.0.0.1
ENV
# Only the images differ from compose.yaml: the app's as built, and the two above.
{
  echo "services:"
  for service in migrate app1 app2 app3; do printf '  %s:\n    image: %s\n' "$service" "$app_image"; done
  printf '  db:\n    image: %s\n  nginx:\n    image: %s\n' "$db_image" "$nginx_image"
} >"$work/override.yaml"

# --- Up
started=$(now_ms)
compose up -d --no-build >"$work/up.log" 2>&1 || fail "docker-compose up: $(tail -5 "$work/up.log")"
wait_for 180 '[ "$(curl -sS --max-time 2 "$origin/resources/healthcheck" 2>/dev/null || true)" = OK ]' \
  || fail "the site did not answer through nginx within 180 s"
up_s=$(seconds_since "$started")
migrate=$(container migrate)
[ "$(docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' "$migrate")" = "exited 0" ] \
  || fail "the migration step did not end well: $(docker logs --tail 10 "$migrate" 2>&1)"
# Read whole before grep: with pipefail, grep -q leaving early makes a long log's writer fail (SIGPIPE).
grep -q 'migration' <<<"$(docker logs "$migrate" 2>&1)" || fail "the migration step said nothing of migrations: $(docker logs "$migrate" 2>&1)"
# Docker runs the image's first health check 30 s after the start (its interval).
for service in app1 app2 app3; do
  wait_for 90 '[ "$(docker inspect -f "{{.State.Health.Status}}" "$(container '"$service"')")" = healthy ]' \
    || fail "$service is not healthy by Docker's health check"
done
ok "up in ${up_s} s: PostgreSQL, the migration step (exited 0), three replicas (healthy by Docker's check in $(seconds_since "$started") s), nginx on port $port"

# --- nginx shares requests among the replicas
for _ in 1 2 3 4 5 6; do
  [ "$(curl -sS -o /dev/null -w '%{http_code}' "$origin/signup")" = 200 ] || fail "GET /signup through nginx"
done
for service in app1 app2 app3; do
  wait_for 5 'docker logs "$(container '"$service"')" 2>&1 | grep -q "\"path\":\"/signup\""' || fail "$service served none of six requests"
done
ok "six requests through nginx, each replica served some"

# --- A sign-up and a generation, through nginx, stored in PostgreSQL
status=$(curl -sS -o "$work/register.json" -w '%{http_code}' -H 'Content-Type: application/json' "$origin/auth/register" \
  -d '{"email":"compose@example.org","firstName":"Com","lastName":"Pose","password":"a good password","confirmPassword":"a good password"}')
[ "$status" = 201 ] || fail "sign-up through nginx answered $status: $(cut -c1-200 "$work/register.json")"
token=$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$work/register.json")
curl -sS -N --max-time 60 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$origin/api/narrative/generate" \
  -d '{"company":"Valley Readers","contactName1":"Ana Ruiz","contactEmail1":"ana@valleyreaders.org","missionStatement":"To teach every adult in the valley who wants to read to do so.","keyPrograms":"We run evening classes in three libraries and pair learners with volunteer tutors.","impactMetrics":"In 2024 we taught 420 adults, and 310 of them passed the state reading test.","selectedTone":"professional"}' \
  >"$work/generate.sse" || fail "the generation's stream through nginx broke off"
grep -q '"status":"complete"' "$work/generate.sse" || fail "the generation did not finish complete: $(tail -c 300 "$work/generate.sse")"
db=$(container db)
rows=$(docker exec "$db" psql -U studio -d studio -Atc "SELECT count(*) FROM \"Narrative\" WHERE \"status\" = 'complete'")
[ "$rows" = 1 ] || fail "PostgreSQL holds $rows complete narratives, not 1"
ok "a sign-up and a streamed generation through nginx, the narrative stored in PostgreSQL"

# --- A replica dies: the site still answers
docker kill "$(container app2)" >/dev/null
for _ in 1 2 3 4 5 6; do
  code=$(curl -sS -o /dev/null -w '%{http_code}' "$origin/signup")
  [ "$code" = 200 ] || fail "with app2 killed, GET /signup through nginx answered $code"
done
ok "with app2 killed, six requests through nginx all answered 200"
started=$(now_ms)
compose down -v >"$work/down.log" 2>&1 || fail "docker-compose down: $(tail -5 "$work/down.log")"
ok "down, its volume removed, in $(seconds_since "$started") s"
echo "compose test passed: up in ${up_s} s"

