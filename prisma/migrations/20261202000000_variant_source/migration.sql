-- Which text of the narrative a variant (or an answer) was written from, as a SHA-256 fingerprint: an edit
-- of the narrative marks it out of date. NULL for the variants written before: their source is unknown.
ALTER TABLE "NarrativeVariant" ADD COLUMN "writtenFrom" TEXT;
