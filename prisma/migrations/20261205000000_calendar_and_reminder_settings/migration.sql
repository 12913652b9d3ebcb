-- A person's calendar of deadlines has a secret address signed with "calendarVersion", and renewing counts it
-- up (docs/decisions/052). Deadline reminders can be turned off, and go at most once a day (decision 053).
-- The table is rebuilt, as schema.prisma would make it, so the columns are written as a new database has them.
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
    "updatedAt" DATETIME NOT NULL,
    "languageVariety" TEXT,
    "dateFormat" TEXT,
    "currency" TEXT,
    "paper" TEXT,
    "variantDay" TEXT,
    "variantsUsed" INTEGER NOT NULL DEFAULT 0,
    "calendarVersion" INTEGER NOT NULL DEFAULT 0,
    "deadlineReminders" BOOLEAN NOT NULL DEFAULT true,
    "remindedOn" TEXT
);
INSERT INTO "new_User" ("createdAt", "currency", "dailyLimit", "dateFormat", "disabledAt", "email", "firstName", "generationsTotal", "id", "isAdmin", "languageVariety", "lastName", "marketingConsentAt", "paper", "passwordHash", "quotaDay", "quotaUsed", "termsAcceptedAt", "updatedAt", "variantDay", "variantsUsed")
SELECT "createdAt", "currency", "dailyLimit", "dateFormat", "disabledAt", "email", "firstName", "generationsTotal", "id", "isAdmin", "languageVariety", "lastName", "marketingConsentAt", "paper", "passwordHash", "quotaDay", "quotaUsed", "termsAcceptedAt", "updatedAt", "variantDay", "variantsUsed"
FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
