-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "passwordHash" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "termsAcceptedAt" TIMESTAMP(3),
    "marketingConsentAt" TIMESTAMP(3),
    "quotaDay" TEXT,
    "quotaUsed" INTEGER NOT NULL DEFAULT 0,
    "generationsTotal" INTEGER NOT NULL DEFAULT 0,
    "dailyLimit" INTEGER,
    "disabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PasswordReset" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT 'reset',
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "newEmail" TEXT,

    CONSTRAINT "PasswordReset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Narrative" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "company" TEXT NOT NULL,
    "website" TEXT NOT NULL DEFAULT '',
    "contactName1" TEXT NOT NULL,
    "contactTitle1" TEXT NOT NULL DEFAULT '',
    "contactEmail1" TEXT NOT NULL,
    "contactPhone1" TEXT NOT NULL DEFAULT '',
    "contactName2" TEXT NOT NULL DEFAULT '',
    "contactTitle2" TEXT NOT NULL DEFAULT '',
    "contactEmail2" TEXT NOT NULL DEFAULT '',
    "contactPhone2" TEXT NOT NULL DEFAULT '',
    "missionStatement" TEXT NOT NULL,
    "keyPrograms" TEXT NOT NULL,
    "impactMetrics" TEXT NOT NULL,
    "targetAudience" TEXT NOT NULL DEFAULT '',
    "geographicFocus" TEXT NOT NULL DEFAULT '',
    "tone" TEXT NOT NULL,
    "generatedNarrative" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'complete',
    "engine" TEXT NOT NULL,
    "quotaDay" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "claims" TEXT,
    "funderId" TEXT,
    "funderName" TEXT,
    "amountRequested" TEXT,
    "deadline" TEXT,
    "brief" TEXT,
    "alignment" TEXT,
    "successStory" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "Narrative_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NarrativeVersion" (
    "id" TEXT NOT NULL,
    "narrativeId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NarrativeVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NarrativeVariant" (
    "id" TEXT NOT NULL,
    "narrativeId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "limitUnit" TEXT NOT NULL,
    "limitMax" INTEGER NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'generating',
    "engine" TEXT NOT NULL,
    "quotaDay" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "claims" TEXT,
    "question" TEXT,

    CONSTRAINT "NarrativeVariant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RetiredQuota" (
    "day" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RetiredQuota_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "Funder" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Funder_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "PasswordReset_tokenHash_key" ON "PasswordReset"("tokenHash");

-- CreateIndex
CREATE INDEX "PasswordReset_userId_idx" ON "PasswordReset"("userId");

-- CreateIndex
CREATE INDEX "Narrative_userId_createdAt_id_idx" ON "Narrative"("userId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Narrative_createdAt_id_idx" ON "Narrative"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Narrative_userId_status_idx" ON "Narrative"("userId", "status");

-- CreateIndex
CREATE INDEX "Narrative_userId_funderId_idx" ON "Narrative"("userId", "funderId");

-- CreateIndex
CREATE INDEX "Narrative_userId_deadline_idx" ON "Narrative"("userId", "deadline");

-- CreateIndex
CREATE INDEX "Narrative_deadline_idx" ON "Narrative"("deadline");

-- CreateIndex
CREATE INDEX "Narrative_status_idx" ON "Narrative"("status");

-- CreateIndex
CREATE INDEX "NarrativeVersion_narrativeId_createdAt_idx" ON "NarrativeVersion"("narrativeId", "createdAt");

-- CreateIndex
CREATE INDEX "NarrativeVariant_narrativeId_createdAt_idx" ON "NarrativeVariant"("narrativeId", "createdAt");

-- CreateIndex
CREATE INDEX "NarrativeVariant_userId_status_idx" ON "NarrativeVariant"("userId", "status");

-- CreateIndex
CREATE INDEX "NarrativeVariant_status_idx" ON "NarrativeVariant"("status");

-- CreateIndex
CREATE INDEX "Funder_userId_createdAt_idx" ON "Funder"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PasswordReset" ADD CONSTRAINT "PasswordReset_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Narrative" ADD CONSTRAINT "Narrative_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NarrativeVersion" ADD CONSTRAINT "NarrativeVersion_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NarrativeVariant" ADD CONSTRAINT "NarrativeVariant_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Funder" ADD CONSTRAINT "Funder_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
