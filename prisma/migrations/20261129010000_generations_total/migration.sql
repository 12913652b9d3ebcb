-- Manage Users counts today and in total the same way: generations claimed and not given back. The total
-- starts from the narratives and variants kept that were generated (not failed, not saved by hand); those
-- deleted before this have left no trace to count. The table is rebuilt so the column sits beside quotaUsed.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "passwordHash" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "termsAcceptedAt" DATETIME,
    "marketingConsentAt" DATETIME,
    "quotaDay" TEXT,
    "quotaUsed" INTEGER NOT NULL DEFAULT 0,
    "generationsTotal" INTEGER NOT NULL DEFAULT 0,
    "dailyLimit" INTEGER,
    "disabledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_User" ("createdAt", "dailyLimit", "disabledAt", "email", "firstName", "generationsTotal", "id", "isAdmin", "lastName", "marketingConsentAt", "passwordHash", "quotaDay", "quotaUsed", "termsAcceptedAt", "updatedAt")
SELECT "createdAt", "dailyLimit", "disabledAt", "email", "firstName",
  (SELECT COUNT(*) FROM "Narrative" n WHERE n."userId" = "User"."id" AND n."status" <> 'failed' AND n."engine" <> 'manual')
    + (SELECT COUNT(*) FROM "NarrativeVariant" v WHERE v."userId" = "User"."id" AND v."status" <> 'failed'),
  "id", "isAdmin", "lastName", "marketingConsentAt", "passwordHash", "quotaDay", "quotaUsed", "termsAcceptedAt", "updatedAt"
FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
