-- Lists are ordered by ("createdAt", "id") newest first: indexes that end in both serve them unsorted.
-- DropIndex
DROP INDEX "Narrative_userId_createdAt_idx";

-- DropIndex
DROP INDEX "Narrative_createdAt_idx";

-- CreateIndex
CREATE INDEX "Narrative_userId_createdAt_id_idx" ON "Narrative"("userId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Narrative_createdAt_id_idx" ON "Narrative"("createdAt", "id");
