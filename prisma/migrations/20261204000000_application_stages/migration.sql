-- Where each application stands, and the date each stage on its way there was reached (docs/decisions/051).
ALTER TABLE "Narrative" ADD COLUMN "stage" TEXT NOT NULL DEFAULT 'drafting';

CREATE TABLE "NarrativeStage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "narrativeId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "NarrativeStage_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "Narrative_userId_stage_idx" ON "Narrative"("userId", "stage");
CREATE UNIQUE INDEX "NarrativeStage_narrativeId_stage_key" ON "NarrativeStage"("narrativeId", "stage");
