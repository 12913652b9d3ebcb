-- Funder briefs (docs/decisions/030): a funder's call, saved per user and reused, and what a narrative
-- written for one carries: the funder, the amount asked, the deadline, the brief as written for and the
-- alignment of its text with the brief's priorities. A narrative's funderId has no foreign key: deleting a
-- brief clears it in the same transaction, and the narrative keeps the rest.
CREATE TABLE "Funder" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "callText" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'pasted',
    "priorities" TEXT NOT NULL DEFAULT '[]',
    "questions" TEXT NOT NULL DEFAULT '[]',
    "terms" TEXT NOT NULL DEFAULT '[]',
    "maxWords" INTEGER,
    "deadline" TEXT,
    "amountMin" INTEGER,
    "amountMax" INTEGER,
    "currency" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Funder_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Funder_userId_createdAt_idx" ON "Funder"("userId", "createdAt");

ALTER TABLE "Narrative" ADD COLUMN "funderId" TEXT;
ALTER TABLE "Narrative" ADD COLUMN "funderName" TEXT;
ALTER TABLE "Narrative" ADD COLUMN "amountRequested" TEXT;
ALTER TABLE "Narrative" ADD COLUMN "deadline" TEXT;
ALTER TABLE "Narrative" ADD COLUMN "brief" TEXT;
ALTER TABLE "Narrative" ADD COLUMN "alignment" TEXT;
CREATE INDEX "Narrative_userId_funderId_idx" ON "Narrative"("userId", "funderId");
CREATE INDEX "Narrative_userId_deadline_idx" ON "Narrative"("userId", "deadline");
CREATE INDEX "Narrative_deadline_idx" ON "Narrative"("deadline");

ALTER TABLE "NarrativeVariant" ADD COLUMN "question" TEXT;
