-- The event streams open on each replica, for the per-person cap (docs/decisions/038).
-- CreateTable
CREATE TABLE "OpenStream" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "replica" TEXT NOT NULL,
    "openedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OpenStream_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OpenStream_userId_idx" ON "OpenStream"("userId");

