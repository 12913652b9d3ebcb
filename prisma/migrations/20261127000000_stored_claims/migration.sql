-- A text's claims are found when the text changes and kept beside it, not found again on every read.
-- NULL means not found yet: the first read finds and keeps them. A change of the rules that find claims
-- sets the column back to NULL in a migration of its own (docs/decisions/025).
ALTER TABLE "Narrative" ADD COLUMN "claims" TEXT;
ALTER TABLE "NarrativeVariant" ADD COLUMN "claims" TEXT;
