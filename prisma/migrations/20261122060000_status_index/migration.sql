-- Start-up looks for generations a crash interrupted (status = 'generating'): without an index, a
-- scan of every narrative (0.6 s with 100,000 of them).
-- CreateIndex
CREATE INDEX "Narrative_status_idx" ON "Narrative"("status");
