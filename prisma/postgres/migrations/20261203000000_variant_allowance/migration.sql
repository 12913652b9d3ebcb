-- Answers and variants written by a model draw on an allowance of their own, apart from the day's narratives.
ALTER TABLE "User" ADD COLUMN "variantDay" TEXT;
ALTER TABLE "User" ADD COLUMN "variantsUsed" INTEGER NOT NULL DEFAULT 0;
