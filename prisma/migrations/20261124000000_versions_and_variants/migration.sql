-- The narrative workbench (issue 12, decisions 018 and 020): every text a narrative has had, and its
-- variants fitted to a limit.
CREATE TABLE "NarrativeVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "narrativeId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "NarrativeVersion_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "NarrativeVariant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "narrativeId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "limitUnit" TEXT NOT NULL,
    "limitMax" INTEGER NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'generating',
    "engine" TEXT NOT NULL,
    "quotaDay" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "NarrativeVariant_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "NarrativeVersion_narrativeId_createdAt_idx" ON "NarrativeVersion"("narrativeId", "createdAt");
CREATE INDEX "NarrativeVariant_narrativeId_createdAt_idx" ON "NarrativeVariant"("narrativeId", "createdAt");
CREATE INDEX "NarrativeVariant_userId_status_idx" ON "NarrativeVariant"("userId", "status");
CREATE INDEX "NarrativeVariant_status_idx" ON "NarrativeVariant"("status");

-- Each narrative written before versions existed starts its history with the text it has: "generated"
-- when an engine wrote it, "edited" when a person sent it through the API; dated when it was last saved.
INSERT INTO "NarrativeVersion" ("id", "narrativeId", "text", "source", "createdAt")
SELECT 'v' || lower(hex(randomblob(12))), "id", "generatedNarrative",
       CASE WHEN "engine" = 'manual' THEN 'edited' ELSE 'generated' END, "updatedAt"
FROM "Narrative" WHERE "generatedNarrative" <> '' AND "status" <> 'generating';
