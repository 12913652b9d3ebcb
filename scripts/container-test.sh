#!/usr/bin/env bash
# The Docker image as an operator meets it. Builds the image, runs it on a fresh volume and checks:
# the health check (HTTP and Docker's own), the sign-up page, an API sign-up and a streamed generation
# (the offline drafter), that the server runs as a non-root user, a graceful `docker stop` (timed),
# the data across a restart, and `npm run admin`, `backup` and `restore` inside the image. Then
# compose.yaml with this image: PostgreSQL, the migration step, three replicas and nginx
# (scripts/compose-test.sh).
# CI runs it after `npm test` (.ci/run); docs/decisions/028-a-container-that-builds-and-is-tested.md.
# Needs a running Docker daemon, and the base image node:24-bookworm-slim (or Docker Hub to pull it).
# Usage: bash scripts/container-test.sh [TAG]   (default impact-narrative-studio:test)
set -euo pipefail
cd "$(dirname "$0")/.."

tag=${1:-impact-narrative-studio:test}
name=ins-container-test-$$
volume=$name-data
work=$(mktemp -d)
# The most node_modules may weigh in the image, in MB: about 100 today, 309 before it was slimmed.
max_modules_mb=150

cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker volume rm "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  if docker container inspect "$name" >/dev/null 2>&1; then
    echo "--- the container's last log lines" >&2
    docker logs --tail 30 "$name" 2>&1 | cut -c1-300 >&2
  fi
  exit 1
}
ok() { echo "ok: $*"; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
seconds_since() { awk -v ms=$(($(now_ms) - $1)) 'BEGIN { printf "%.1f", ms / 1000 }'; }

docker info >/dev/null 2>&1 || fail "no Docker daemon answers (docker info): start dockerd, or run as a user allowed to use it"
test_started=$(now_ms)

# --- The image
started=$(now_ms)
docker build --network host --force-rm -t "$tag" . >"$work/build.log" 2>&1 \
  || { grep -E '^Step |ERR!|npm error|returned a non-zero code' "$work/build.log" | tail -40 >&2; fail "docker build"; }
build_s=$(seconds_since "$started")
image_mb=$(docker image inspect -f '{{.Size}}' "$tag" | awk '{ printf "%d", $1 / 1e6 }')
modules_mb=$(docker run --rm --entrypoint du "$tag" -sb /app/node_modules | awk '{ printf "%d", $1 / 1e6 }')
ok "built $tag in ${build_s} s: image ${image_mb} MB, of which node_modules ${modules_mb} MB"
[ "$modules_mb" -le "$max_modules_mb" ] || fail "node_modules weighs ${modules_mb} MB, over ${max_modules_mb} MB: see scripts/slim-node-modules.sh"

# --- First start, on an empty volume: migrations run, then the server answers
origin() { echo "http://$(docker port "$name" 3000/tcp | head -1)"; }
wait_for_health() {
  local started deadline answer
  started=$(now_ms)
  deadline=$((started + 60000))
  while [ "$(now_ms)" -lt "$deadline" ]; do
    answer=$(curl -sS --max-time 2 "$(origin)/resources/healthcheck" 2>/dev/null || true)
    [ "$answer" = OK ] && { seconds_since "$started"; return; }
    [ "$(docker inspect -f '{{.State.Running}}' "$name")" = true ] || fail "the container exited while starting"
    sleep 0.2
  done
  fail "no OK from /resources/healthcheck within 60 s"
}
started=$(now_ms)
docker run -d --name "$name" -p 127.0.0.1::3000 -v "$volume:/data" "$tag" >/dev/null
wait_for_health >/dev/null
ok "first start on an empty volume (migrations included): healthy in $(seconds_since "$started") s"

uid=$(docker exec "$name" cat /proc/1/status | awk '$1 == "Uid:" { print $2 }')
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "the server runs as uid '$uid'"
[ "$(docker exec "$name" stat -c %u /data/app.db)" = "$uid" ] || fail "the database is not owned by the server's user"
ok "the server runs as uid $uid ($(docker exec "$name" id -un)), and owns /data/app.db"

code=$(curl -sS -o "$work/signup.html" -w '%{http_code}' "$(origin)/signup")
[ "$code" = 200 ] || fail "GET /signup answered $code"
grep -q '<title>Create an account | Impact Narrative Studio</title>' "$work/signup.html" || fail "the sign-up page has not its title"
grep -q '<form [^>]*action="/signup" method="post"' "$work/signup.html" || fail "the sign-up page has no form that posts without JavaScript"
stylesheet=$(grep -o '/assets/[^"]*\.css' "$work/signup.html" | head -1)
[ -n "$stylesheet" ] && [ "$(curl -sS -o /dev/null -w '%{http_code}' "$(origin)$stylesheet")" = 200 ] || fail "the sign-up page's stylesheet '$stylesheet' is not served"
ok "the sign-up page, with its form and its stylesheet"

email=container-test@example.org
curl -sS -o "$work/register.json" -w '%{http_code}' -H 'Content-Type: application/json' \
  -d "{\"email\":\"$email\",\"firstName\":\"Container\",\"lastName\":\"Test\",\"password\":\"a good password\",\"confirmPassword\":\"a good password\"}" \
  "$(origin)/auth/register" >"$work/register.code"
[ "$(cat "$work/register.code")" = 201 ] || fail "POST /auth/register answered $(cat "$work/register.code"): $(cat "$work/register.json")"
token=$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$work/register.json")
[ -n "$token" ] || fail "no token in the sign-up's answer"
ok "an API sign-up (201, with a token)"

# Each line of the stream stamped with the time it arrived: a stream held back and sent at the end
# would arrive all at once.
curl -sS -N -D "$work/generate.headers" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"company":"Harvest Table Food Bank","contactName1":"Maria Delgado","contactEmail1":"maria@harvesttable.org","missionStatement":"To end hunger in Travis County by connecting families with nutritious food.","keyPrograms":"We run 14 neighborhood pantries and a mobile market that visits rural towns every week.","impactMetrics":"In 2023 we distributed 4.2 million pounds of food and served 38,000 individuals.","selectedTone":"professional"}' \
  "$(origin)/api/narrative/generate" | while IFS= read -r line; do echo "$(now_ms) $line"; done >"$work/stream"
grep -qi '^content-type: text/event-stream' "$work/generate.headers" || fail "the generation is not an event stream: $(head -1 "$work/generate.headers")"
deltas=$(grep -c ' event: delta$' "$work/stream" || true)
first_delta=$(awk '$2 == "event:" && $3 == "delta" { print $1; exit }' "$work/stream")
done_at=$(awk '$2 == "event:" && $3 == "done" { print $1; exit }' "$work/stream")
[ -n "$done_at" ] && grep -q '"status":"complete"' "$work/stream" || fail "the generation did not finish: $(tail -3 "$work/stream")"
[ "$deltas" -ge 3 ] && [ $((done_at - first_delta)) -ge 300 ] || fail "the text came in $deltas pieces over $((done_at - first_delta)) ms: not streamed"
narrative=$(awk '$2 == "event:" && $3 == "start" { getline; print; exit }' "$work/stream" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
[ -n "$narrative" ] || fail "no narrative id in the stream's start event"
ok "a generation streamed by the offline drafter: $deltas pieces over $((done_at - first_delta)) ms, then done"

# Docker's own HEALTHCHECK (every 30 s): its first check, as `docker ps` shows it.
deadline=$(($(now_ms) + 90000))
until [ "$(docker inspect -f '{{.State.Health.Status}}' "$name")" = healthy ]; do
  [ "$(now_ms)" -lt "$deadline" ] || fail "Docker's health check says $(docker inspect -f '{{.State.Health.Status}}' "$name")"
  sleep 1
done
ok "Docker's HEALTHCHECK reports healthy"

# --- npm run admin and backup, inside the running container
docker exec "$name" npm run --silent admin -- grant "$email" >"$work/admin.out" 2>&1 || fail "npm run admin: $(cat "$work/admin.out")"
grep -q "$email is now an administrator." "$work/admin.out" || fail "npm run admin said: $(cat "$work/admin.out")"
grep -q '"isAdmin":true' <<<"$(curl -sS -H "Authorization: Bearer $token" "$(origin)/auth/profile")" || fail "the granted role does not show in /auth/profile"
ok "npm run admin -- grant (the API sees the role)"

docker exec "$name" mkdir -p /data/backups
docker exec "$name" npm run --silent backup -- /data/backups/test.db >"$work/backup.out" 2>&1 || fail "npm run backup: $(cat "$work/backup.out")"
grep -q 'Backup OK: /data/backups/test.db .*User 1 rows, Narrative 1 rows' "$work/backup.out" || fail "npm run backup said: $(cat "$work/backup.out")"
ok "npm run backup: $(cut -c1-120 "$work/backup.out")"

# --- docker stop: SIGTERM reaches node, which stops gracefully
secret=$(docker exec "$name" sha256sum /data/session-secret)
started=$(now_ms)
docker stop "$name" >/dev/null
stop_s=$(seconds_since "$started")
exit_code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
[ "$exit_code" = 0 ] || fail "after docker stop the server exited with $exit_code (137: killed when docker's 10 s ran out)"
# Read whole before grep: with pipefail, grep -q leaving early makes a long log's writer fail (SIGPIPE).
grep -q '"event":"server.stopping","signal":"SIGTERM"' <<<"$(docker logs "$name" 2>&1)" || fail "the server did not log a graceful stop"
ok "docker stop: the server stopped gracefully (exit 0) in ${stop_s} s"

# --- Restart: the same data
started=$(now_ms)
docker start "$name" >/dev/null
wait_for_health >/dev/null
ok "restart: healthy in $(seconds_since "$started") s"
[ "$(docker exec "$name" sha256sum /data/session-secret)" = "$secret" ] || fail "the session secret changed across the restart"
curl -sS -H "Authorization: Bearer $token" "$(origin)/api/narrative/$narrative" >"$work/narrative.json"
grep -q "\"id\":\"$narrative\"" "$work/narrative.json" && grep -q '"status":"complete"' "$work/narrative.json" \
  || fail "after the restart the narrative is not there: $(cut -c1-200 "$work/narrative.json")"
ok "after the restart: the same session secret, the token signs in, the narrative is there"

# --- npm run restore, in a one-off container on the volume with the app stopped (docs/operations.md)
docker stop "$name" >/dev/null
docker run --rm -v "$volume:/data" "$tag" npm run --silent restore -- /data/backups/test.db >"$work/restore.out" 2>&1 \
  || fail "npm run restore: $(cat "$work/restore.out")"
docker start "$name" >/dev/null
wait_for_health >/dev/null
grep -q "\"id\":\"$narrative\"" <<<"$(curl -sS -H "Authorization: Bearer $token" "$(origin)/api/narrative/$narrative")" || fail "the narrative is missing after the restore"
ok "npm run restore in a one-off container, then the app starts on the restored database"
docker rm -f "$name" >/dev/null

bash scripts/compose-test.sh "$tag"

echo "container test passed in $(seconds_since "$test_started") s: build ${build_s} s, image ${image_mb} MB (node_modules ${modules_mb} MB), docker stop ${stop_s} s"
