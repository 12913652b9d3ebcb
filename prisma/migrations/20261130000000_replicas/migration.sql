-- Which app process is writing a generation, and when each was last seen (docs/decisions/036): a
-- generation whose process has stopped beating is failed and refunded by another, and only then.
ALTER TABLE "Narrative" ADD COLUMN "runner" TEXT;
ALTER TABLE "NarrativeVariant" ADD COLUMN "runner" TEXT;

CREATE TABLE "Replica" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "seenAt" DATETIME NOT NULL
);
