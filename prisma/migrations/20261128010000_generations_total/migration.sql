-- Manage Users counts today and in total the same way: generations claimed and not given back. The total
-- starts from the narratives and variants kept that were generated (not failed, not saved by hand); those
-- deleted before this have left no trace to count.
ALTER TABLE "User" ADD COLUMN "generationsTotal" INTEGER NOT NULL DEFAULT 0;
UPDATE "User" SET "generationsTotal" =
  (SELECT COUNT(*) FROM "Narrative" n WHERE n."userId" = "User"."id" AND n."status" <> 'failed' AND n."engine" <> 'manual')
  + (SELECT COUNT(*) FROM "NarrativeVariant" v WHERE v."userId" = "User"."id" AND v."status" <> 'failed');
