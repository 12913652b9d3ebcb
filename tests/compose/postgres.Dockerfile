# A stand-in for Docker Hub's postgres:15, where Docker Hub is out of reach (scripts/compose-test.sh):
# Debian's PostgreSQL 15, set up from the same variables on first start, its data in the same place.
FROM node:24-bookworm-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/
ENTRYPOINT ["postgres-entrypoint.sh"]
