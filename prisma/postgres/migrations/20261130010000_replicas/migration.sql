-- Which app process is writing a generation, and when each was last seen (docs/decisions/036): a
-- generation whose process has stopped beating is failed and refunded by another, and only then.
-- AlterTable
ALTER TABLE "Narrative" ADD COLUMN     "runner" TEXT;

-- AlterTable
ALTER TABLE "NarrativeVariant" ADD COLUMN     "runner" TEXT;

-- CreateTable
CREATE TABLE "Replica" (
    "id" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Replica_pkey" PRIMARY KEY ("id")
);
