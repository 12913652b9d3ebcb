-- The rate limits' counters in the database, shared by replicas (docs/decisions/037). Only PostgreSQL's
-- instances use the table; SQLite's one process keeps counting in memory.
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "resetAt" BIGINT NOT NULL
);
