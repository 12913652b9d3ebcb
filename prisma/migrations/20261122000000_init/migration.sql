-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "termsAcceptedAt" DATETIME NOT NULL,
    "marketingConsentAt" DATETIME,
    "quotaDay" TEXT,
    "quotaUsed" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PasswordReset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PasswordReset_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Narrative" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Narrative_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
CREATE INDEX "Narrative_userId_createdAt_idx" ON "Narrative"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Narrative_createdAt_idx" ON "Narrative"("createdAt");

-- CreateIndex
CREATE INDEX "Narrative_userId_status_idx" ON "Narrative"("userId", "status");

