-- A person's own language variety, date format, currency and paper (docs/decisions/043). Null, as every
-- existing account starts: from the browser, as pages and files were before.
-- AlterTable
ALTER TABLE "User" ADD COLUMN     "languageVariety" TEXT,
ADD COLUMN     "dateFormat" TEXT,
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "paper" TEXT;
