-- The event streams open on each replica, for the per-person cap (docs/decisions/038). Only
-- PostgreSQL's instances use the table; SQLite's one process keeps counting in memory.
CREATE TABLE "OpenStream" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "replica" TEXT NOT NULL,
    "openedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "OpenStream_userId_idx" ON "OpenStream"("userId");
